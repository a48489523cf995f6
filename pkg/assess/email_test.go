package assess

import (
	"reflect"
	"testing"
)

func ptrTo[T any](v T) *T { return &v }

func TestSMTPOverridesEffective(t *testing.T) {
	t.Parallel()
	stored := SMTPConfig{Enabled: true, Host: "smtp.db.example", Port: 2525, Username: "mailer", From: "a@example.com", TLSRejectUnauthorized: true}
	tests := []struct {
		name           string
		env            SMTPOverrides
		stored         SMTPConfig
		exists, pwSet  bool
		want           SMTPConfig
		host, port, pw string
	}{
		{name: "nothing stored", stored: DefaultSMTP, want: DefaultSMTP, host: SMTPFromDefault, port: SMTPFromDefault, pw: SMTPFromDefault},
		{name: "stored", stored: stored, exists: true, pwSet: true, want: stored, host: SMTPFromStored, port: SMTPFromStored, pw: SMTPFromStored},
		{name: "the environment wins field by field", env: SMTPOverrides{Host: ptrTo("smtp.env.example"), Password: ptrTo("env secret")},
			stored: stored, exists: true, pwSet: true,
			want: SMTPConfig{Enabled: true, Host: "smtp.env.example", Port: 2525, Username: "mailer", Password: "env secret",
				From: "a@example.com", TLSRejectUnauthorized: true},
			host: SMTPFromEnvironment, port: SMTPFromStored, pw: SMTPFromEnvironment},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, sources := tt.env.Effective(tt.stored, tt.exists, tt.pwSet)
			if got != tt.want {
				t.Errorf("config %+v, want %+v", got, tt.want)
			}
			if sources["host"] != tt.host || sources["port"] != tt.port || sources["password"] != tt.pw || len(sources) != 8 {
				t.Errorf("sources %v", sources)
			}
		})
	}
}

func TestEmailSettingsUpdateValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		env          SMTPOverrides
		upd          EmailSettingsUpdate
		code, detail string
	}{
		{"fine", SMTPOverrides{}, EmailSettingsUpdate{Host: ptrTo(" smtp.example "), Port: ptrTo(465), From: ptrTo("Assay <assay@example.com>")}, "", ""},
		{"empty sender", SMTPOverrides{}, EmailSettingsUpdate{From: ptrTo(" ")}, "", ""},
		{"set by the environment", SMTPOverrides{Host: ptrTo("env")}, EmailSettingsUpdate{Host: ptrTo("db"), Port: ptrTo(25)},
			ECodeBusinessRule, "set_by_environment"},
		{"environment first", SMTPOverrides{Port: ptrTo(25)}, EmailSettingsUpdate{Port: ptrTo(0)}, ECodeBusinessRule, "set_by_environment"},
		{"port out of range", SMTPOverrides{}, EmailSettingsUpdate{Port: ptrTo(70000)}, ECodeValidation, "invalid"},
		{"bad sender", SMTPOverrides{}, EmailSettingsUpdate{From: ptrTo("not an address")}, ECodeValidation, "invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u := tt.upd
			wantCodeAndDetail(t, u.Validate(tt.env), tt.code, tt.detail)
		})
	}
	u := EmailSettingsUpdate{Host: ptrTo(" smtp.example "), From: ptrTo(" a@example.com ")}
	wantCodeAndDetail(t, u.Validate(SMTPOverrides{}), "", "")
	if *u.Host != "smtp.example" || *u.From != "a@example.com" {
		t.Errorf("not trimmed: %q %q", *u.Host, *u.From)
	}
}

func TestEmailSettingsUpdateApply(t *testing.T) {
	t.Parallel()
	u := EmailSettingsUpdate{Enabled: ptrTo(true), Port: ptrTo(2525), Password: ptrTo("kept sealed elsewhere")}
	got := u.Apply(DefaultSMTP)
	want := SMTPConfig{Enabled: true, Port: 2525, TLSRejectUnauthorized: true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v", got)
	}
}

func TestValidateEmailAddress(t *testing.T) {
	t.Parallel()
	for addr, ok := range map[string]bool{"ops@example.com": true, "Ops <ops@example.com>": false, "": false, "ops": false} {
		err := ValidateEmailAddress("to", addr)
		if ok {
			wantCodeAndDetail(t, err, "", "")
		} else {
			wantCodeAndDetail(t, err, ECodeValidation, "invalid")
		}
	}
	if DirectEmailType(EmailTemplateTest) != "email.test" {
		t.Error(DirectEmailType(EmailTemplateTest))
	}
}
