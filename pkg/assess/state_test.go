package assess

import (
	"errors"
	"slices"
	"testing"
)

type lamp string

func TestStateMachineEveryPair(t *testing.T) {
	m := NewStateMachine("lamp", []Transition[lamp]{
		{"off", []lamp{"on"}},
		{"on", []lamp{"off", "broken"}},
		{"broken", nil},
	})
	checkLifecycle(t, m, []lamp{"off", "on", "broken"}, map[lamp][]lamp{"off": {"on"}, "on": {"off", "broken"}})
}

func TestStateMachineRefusesUndeclaredTarget(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a target that is not a declared state must panic at declaration")
		}
	}()
	NewStateMachine("lamp", []Transition[lamp]{{"off", []lamp{"onn"}}})
}

// checkLifecycle checks every from × to pair of the states of m (which must be states, in
// declaration order) against allowed, the targets of each state in the table's order:
// allowed moves pass, and every other is 409 invalid_state_transition whose details list
// exactly the targets of its from state (none for a final state).
func checkLifecycle[S ~string](t *testing.T, m *StateMachine[S], states []S, allowed map[S][]S) {
	t.Helper()
	if got := m.States(); !slices.Equal(got, states) {
		t.Fatalf("states %v, want %v", got, states)
	}
	for _, from := range states {
		for _, to := range states {
			err := m.Check(from, to)
			if slices.Contains(allowed[from], to) {
				if err != nil {
					t.Errorf("%s → %s refused: %v", from, to, err)
				}
				continue
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != ECodeInvalidState {
				t.Errorf("%s → %s: want invalid_state_transition, got %v", from, to, err)
				continue
			}
			var listed []S
			for _, d := range e.Details {
				listed = append(listed, S(d.Message))
			}
			if !slices.Equal(listed, allowed[from]) {
				t.Errorf("%s → %s: the refusal lists %v, want %v", from, to, listed, allowed[from])
			}
		}
	}
}
