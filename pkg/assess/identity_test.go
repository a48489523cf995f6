package assess

import (
	"errors"
	"strings"
	"testing"
)

// firstDetailField is the field of the first detail of a domain error, or "".
func firstDetailField(err error) string {
	var e *Error
	if !errors.As(err, &e) || len(e.Details) == 0 {
		return ""
	}
	return e.Details[0].Field
}

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
		if ErrorCode(err) != ECodeValidation || firstDetailField(err) != c.field {
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

// TestEveryAccountHasADisplayName: the display name is required and not blank, on
// creation and on update, as the web application requires it.
func TestEveryAccountHasADisplayName(t *testing.T) {
	for _, name := range []string{"", "   "} {
		a := NewAccount{Username: "ann", Email: "ann@example.com", DisplayName: name, Password: "long enough password"}
		if err := a.Validate(12); ErrorCode(err) != ECodeValidation || firstDetailField(err) != "displayName" {
			t.Errorf("new account with display name %q: want validation_failed on displayName, got %v", name, err)
		}
		u := NewUser{NewAccount: a}
		if err := u.Validate(12); ErrorCode(err) != ECodeValidation {
			t.Errorf("new user with display name %q: want validation_failed, got %v", name, err)
		}
		upd := UserUpdate{Version: 1, DisplayName: &name}
		if err := upd.Validate(); ErrorCode(err) != ECodeValidation || firstDetailField(err) != "displayName" {
			t.Errorf("update to display name %q: want validation_failed on displayName, got %v", name, err)
		}
	}
	a := NewAccount{Username: "ann", Email: "ann@example.com", DisplayName: " Ann ", Password: "long enough password"}
	if err := a.Validate(12); err != nil || a.DisplayName != "Ann" {
		t.Errorf("a named account: %q, %v", a.DisplayName, err)
	}
	u := NewUser{NewAccount: a}
	if err := u.Validate(12); err != nil || len(u.Roles) != 1 || u.Roles[0] != RoleAssessee {
		t.Errorf("a user without roles is an assessee: %v, %v", u.Roles, err)
	}
}

func TestUnknownPermissionIsEchoedShort(t *testing.T) {
	_, err := ValidatePermissions([]string{strings.Repeat("x", 5000), "admin.users"})
	var e *Error
	if !errors.As(err, &e) || len(e.Details) != 1 {
		t.Fatalf("want one detail, got %v", err)
	}
	if d := e.Details[0]; d.Field != "permissions" || d.Code != "unknown_permission" || len(d.Message) > 120 {
		t.Fatalf("detail %+v", d)
	}
}
