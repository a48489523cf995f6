package assess

// ProjectService manages projects, their standards and entities, and their figures.
type ProjectService interface{}
