package postgres

import "strings"

// Values fixed by the domain — states that a rule of assess names, such as
// assess.ReadOnlyAssessmentStates — go into a statement's text as literals rendered from
// the Go values, never spelled again by hand: a literal lets PostgreSQL keep a query on its
// generic plan, where a parameter may not (TestHotListsUseGenericPlans). Never for input.

// SQLLiteral renders v as an SQL string literal.
func SQLLiteral[S ~string](v S) string {
	return "'" + strings.ReplaceAll(string(v), "'", "''") + "'"
}

// SQLList renders values as a parenthesised list of literals for IN and NOT IN:
// ('complete', 'archived', 'cancelled').
func SQLList[S ~string](values []S) string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = SQLLiteral(v)
	}
	return "(" + strings.Join(out, ", ") + ")"
}
