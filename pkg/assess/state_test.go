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
	allowed := map[[2]lamp]bool{{"off", "on"}: true, {"on", "off"}: true, {"on", "broken"}: true}
	for _, from := range m.States() {
		for _, to := range m.States() {
			err := m.Check(from, to)
			if allowed[[2]lamp{from, to}] {
				if err != nil {
					t.Errorf("%s → %s refused: %v", from, to, err)
				}
				continue
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != ECodeInvalidState {
				t.Fatalf("%s → %s: want invalid_state_transition, got %v", from, to, err)
			}
			var listed []lamp
			for _, d := range e.Details {
				listed = append(listed, lamp(d.Message))
			}
			if !slices.Equal(listed, m.Allowed(from)) {
				t.Errorf("%s → %s: details list %v, allowed are %v", from, to, listed, m.Allowed(from))
			}
		}
	}
}

func TestStateMachineRefusesUndeclaredTarget(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a target that is not a declared state must panic at declaration")
		}
	}()
	NewStateMachine("lamp", []Transition[lamp]{{"off", []lamp{"onn"}}})
}
