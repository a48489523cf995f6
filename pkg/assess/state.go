package assess

import (
	"slices"
	"strings"
)

// StateMachine is the table of a record's lifecycle: for each state, the states it may move
// to. The domain declares one per stateful record (invites now; assessments, evidence and
// standards later) and the stores ask it before every state change, so the rules live here
// and are tested without a database.
type StateMachine[S ~string] struct {
	record string    // "invite", "assessment", … for messages
	next   map[S][]S // allowed targets per state
	states []S       // every state, in declaration order
}

// NewStateMachine declares the transitions of record. Every state that appears as a
// target must also appear as a key (terminal states with no targets included), which is
// checked here so a typo in the table fails at start-up.
func NewStateMachine[S ~string](record string, transitions []Transition[S]) *StateMachine[S] {
	m := &StateMachine[S]{record: record, next: map[S][]S{}}
	for _, t := range transitions {
		if _, dup := m.next[t.From]; dup {
			panic("state machine " + record + ": state " + string(t.From) + " declared twice")
		}
		m.next[t.From] = t.To
		m.states = append(m.states, t.From)
	}
	for _, t := range transitions {
		for _, to := range t.To {
			if _, ok := m.next[to]; !ok {
				panic("state machine " + record + ": target " + string(to) + " is not a declared state")
			}
		}
	}
	return m
}

// Transition lists the states From may move to.
type Transition[S ~string] struct {
	From S
	To   []S
}

// States returns every state in declaration order.
func (m *StateMachine[S]) States() []S { return slices.Clone(m.states) }

// Allowed returns the states from may move to (none for a terminal or unknown state).
func (m *StateMachine[S]) Allowed(from S) []S { return slices.Clone(m.next[from]) }

// Can reports whether from may move to to.
func (m *StateMachine[S]) Can(from, to S) bool { return slices.Contains(m.next[from], to) }

// Check refuses a move the table does not allow with 409 invalid_state_transition; the
// details list the allowed targets (field "state", code "allowed", one detail each) so a
// client can offer them.
func (m *StateMachine[S]) Check(from, to S) error {
	if m.Can(from, to) {
		return nil
	}
	allowed := m.next[from]
	names := make([]string, len(allowed))
	details := make([]Detail, 0, len(allowed))
	for i, s := range allowed {
		names[i] = string(s)
		details = append(details, Detail{Field: "state", Code: "allowed", Message: string(s)})
	}
	msg := "This " + m.record + " is " + string(from) + " and cannot become " + string(to) + "."
	if len(names) == 0 {
		msg += " It cannot change any more."
	} else {
		msg += " Allowed: " + strings.Join(names, ", ") + "."
	}
	return &Error{Code: ECodeInvalidState, Message: msg, Details: details}
}
