package httpapi

// Generic shapes of operation inputs and outputs, instead of anonymous struct literals.

// body is an input or output that is only a JSON body.
type body[T any] struct {
	Body T
}

// reply wraps v as a JSON body output.
func reply[T any](v T) *body[T] { return &body[T]{Body: v} }

// idInput is an input that is only the {id} of the path.
type idInput struct {
	ID string `path:"id" maxLength:"64"`
}

// idBody is an input with the {id} of the path and a JSON body.
type idBody[T any] struct {
	ID   string `path:"id" maxLength:"64"`
	Body T
}
