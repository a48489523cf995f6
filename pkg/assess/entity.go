package assess

// EntityService manages entities, their relationship graph and compliance policies.
type EntityService interface{}
