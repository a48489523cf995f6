package assess

import (
	"errors"
	"testing"
)

func TestProfileUpdateValidate(t *testing.T) {
	blank, bad, named := "  ", "not-an-email", " Ann "
	for _, c := range []struct {
		upd   ProfileUpdate
		field string
	}{
		{ProfileUpdate{Version: 1, DisplayName: &blank}, "displayName"},
		{ProfileUpdate{Version: 1, Email: &bad}, "email"},
	} {
		err := c.upd.Validate()
		var e *Error
		if !errors.As(err, &e) || e.Code != ECodeValidation || e.Details[0].Field != c.field {
			t.Errorf("%+v: want validation_failed on %s, got %v", c.upd, c.field, err)
		}
	}
	upd := ProfileUpdate{Version: 1, DisplayName: &named}
	if err := upd.Validate(); err != nil || *upd.DisplayName != "Ann" {
		t.Errorf("trimmed display name: %q, %v", *upd.DisplayName, err)
	}
	if u := upd.UserUpdate(); u.Version != 1 || u.DisplayName != upd.DisplayName || u.Active != nil || u.Roles != nil {
		t.Errorf("a profile change is an update of e-mail and display name only: %+v", u)
	}
}

func TestPasswordChangeValidate(t *testing.T) {
	if err := (PasswordChange{CurrentPassword: "x", NewPassword: "short"}).Validate(12); ErrorCode(err) != ECodeValidation {
		t.Errorf("a short new password: %v", err)
	}
	if err := (PasswordChange{CurrentPassword: "x", NewPassword: "long enough password"}).Validate(12); err != nil {
		t.Errorf("an acceptable new password: %v", err)
	}
}
