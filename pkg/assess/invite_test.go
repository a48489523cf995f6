package assess

import (
	"errors"
	"testing"
	"time"
)

// TestInviteLifecycle checks every from × to pair of the invite state machine: an unused
// invite may be consumed, revoked or expire; every other move is refused with
// invalid_state_transition listing what the state allows (nothing, for the final states).
func TestInviteLifecycle(t *testing.T) {
	all := []InviteState{InviteUnused, InviteConsumed, InviteRevoked, InviteExpired}
	allowed := map[InviteState][]InviteState{InviteUnused: {InviteConsumed, InviteRevoked, InviteExpired}}
	checkLifecycle(t, InviteLifecycle, all, allowed)
}

func TestInviteStatus(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	earlier, later := now.Add(-time.Hour), now.Add(time.Hour)
	cases := []struct {
		consumed, revoked *time.Time
		expires           time.Time
		want              InviteState
	}{
		{nil, nil, later, InviteUnused},
		{nil, nil, now, InviteExpired},
		{nil, nil, earlier, InviteExpired},
		{&earlier, nil, earlier, InviteConsumed},
		{nil, &earlier, later, InviteRevoked},
		{&earlier, &earlier, later, InviteConsumed},
	}
	for i, c := range cases {
		if got := InviteStatus(c.consumed, c.revoked, c.expires, now); got != c.want {
			t.Errorf("case %d: got %s, want %s", i, got, c.want)
		}
	}
}

func TestNewInviteValidate(t *testing.T) {
	cases := []struct {
		in          NewInvite
		code, field string
	}{
		{NewInvite{IntendedRole: "assessor"}, "", ""},
		{NewInvite{Email: " a@example.com ", IntendedRole: "assessor", SendEmail: true}, "", ""},
		{NewInvite{Email: "not-an-email", IntendedRole: "assessor"}, ECodeValidation, "email"},
		{NewInvite{Email: "Ann <a@example.com>", IntendedRole: "assessor"}, ECodeValidation, "email"},
		{NewInvite{IntendedRole: "  "}, ECodeValidation, "intendedRole"},
		{NewInvite{IntendedRole: "assessor", ExpiresInHours: 8761}, ECodeValidation, "expiresInHours"},
		{NewInvite{IntendedRole: "assessor", SendEmail: true}, ECodeBusinessRule, "email"},
	}
	for i, c := range cases {
		err := c.in.Validate()
		if c.code == "" {
			if err != nil {
				t.Errorf("case %d: %v", i, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Code != c.code || len(e.Details) == 0 || e.Details[0].Field != c.field {
			t.Errorf("case %d: want %s on %s, got %v", i, c.code, c.field, err)
		}
	}
	in := NewInvite{Email: " a@example.com ", IntendedRole: " assessor "}
	if err := in.Validate(); err != nil || in.Email != "a@example.com" || in.IntendedRole != "assessor" || in.ExpiresInHours != DefaultInviteHours {
		t.Errorf("not normalised: %+v, %v", in, err)
	}
}
