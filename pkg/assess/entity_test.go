package assess

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestEntityLifecycleEveryPair(t *testing.T) {
	allowed := map[[2]EntityState]bool{
		{EntityActive, EntityInactive}: true, {EntityActive, EntityArchived}: true,
		{EntityInactive, EntityActive}: true, {EntityInactive, EntityArchived}: true,
		{EntityArchived, EntityActive}: true,
	}
	states := EntityLifecycle.States()
	if len(states) != 3 {
		t.Fatalf("states: %v", states)
	}
	for _, from := range states {
		for _, to := range states {
			err := EntityLifecycle.Check(from, to)
			switch {
			case allowed[[2]EntityState{from, to}] && err != nil:
				t.Errorf("%s → %s refused: %v", from, to, err)
			case !allowed[[2]EntityState{from, to}] && ErrorCode(err) != ECodeInvalidState:
				t.Errorf("%s → %s: want invalid_state_transition, got %v", from, to, err)
			}
		}
	}
}

func TestRelationshipTypes(t *testing.T) {
	for _, r := range RelationshipTypes {
		want := r == RelOwns || r == RelContains || r == RelGoverns
		if r.Inherits() != want {
			t.Errorf("%s: inherits %v, want %v", r, r.Inherits(), want)
		}
	}
	if RelationshipType("likes").Valid() || !RelDependsOn.Valid() {
		t.Error("Valid is wrong")
	}
	if len(EntityTypes) != 10 || EntityType("planet").Valid() {
		t.Error("entity types are wrong")
	}
}

func firstDetail(err error) (string, string) {
	var e *Error
	if !errors.As(err, &e) || len(e.Details) == 0 {
		return "", ""
	}
	return e.Details[0].Field, e.Details[0].Code
}

func TestNewEntityValidate(t *testing.T) {
	now := time.Now()
	user, tag := NewID(PrefixUser, now), NewID(PrefixTag, now)
	cases := []struct {
		name  string
		in    NewEntity
		code  string
		field string
	}{
		{"a plain entity", NewEntity{Name: " Acme ", Type: EntityTypeOrganization}, "", ""},
		{"inactive with owner and tags", NewEntity{Name: "x", Type: EntityTypeVendor, State: EntityInactive, OwnerID: user, TagIDs: []string{tag}}, "", ""},
		{"a blank name", NewEntity{Name: "  ", Type: EntityTypeTeam}, ECodeValidation, "name"},
		{"a name too long", NewEntity{Name: strings.Repeat("é", 301), Type: EntityTypeTeam}, ECodeValidation, "name"},
		{"no type", NewEntity{Name: "x"}, ECodeValidation, "type"},
		{"an unknown type", NewEntity{Name: "x", Type: "planet"}, ECodeValidation, "type"},
		{"created archived", NewEntity{Name: "x", Type: EntityTypeTeam, State: EntityArchived}, ECodeValidation, "state"},
		{"a malformed owner", NewEntity{Name: "x", Type: EntityTypeTeam, OwnerID: "bob"}, ECodeValidation, "ownerId"},
		{"a malformed tag", NewEntity{Name: "x", Type: EntityTypeTeam, TagIDs: []string{"red"}}, ECodeValidation, "tagIds"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.in.Validate()
			if (c.code == "") != (err == nil) || ErrorCode(err) != c.code && err != nil {
				t.Fatalf("got %v, want %q", err, c.code)
			}
			if field, _ := firstDetail(err); field != c.field {
				t.Errorf("field %q, want %q", field, c.field)
			}
		})
	}
	n := NewEntity{Name: " Acme ", Type: EntityTypeOrganization}
	if err := n.Validate(); err != nil || n.Name != "Acme" || n.State != EntityActive {
		t.Errorf("not normalised: %+v %v", n, err)
	}
}

func TestEntityUpdateValidate(t *testing.T) {
	ptr := func(s string) *string { return &s }
	typ, state, badState := EntityTypeProduct, EntityArchived, EntityState("gone")
	cases := []struct {
		name  string
		in    EntityUpdate
		field string
	}{
		{"nothing", EntityUpdate{Version: 1}, ""},
		{"everything", EntityUpdate{Version: 1, Name: ptr("n"), Description: ptr(""), Type: &typ, State: &state, OwnerID: ptr(""), TagIDs: &[]string{}}, ""},
		{"a blank name", EntityUpdate{Version: 1, Name: ptr(" ")}, "name"},
		{"an unknown state", EntityUpdate{Version: 1, State: &badState}, "state"},
		{"a malformed owner", EntityUpdate{Version: 1, OwnerID: ptr("u_x")}, "ownerId"},
		{"a malformed tag", EntityUpdate{Version: 1, TagIDs: &[]string{"tg_1"}}, "tagIds"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.in.Validate()
			if field, _ := firstDetail(err); field != c.field || (c.field == "") != (err == nil) {
				t.Errorf("got %v, want a problem on %q", err, c.field)
			}
		})
	}
}

func TestNewRelationshipValidate(t *testing.T) {
	src, dst := NewID(PrefixEntity, time.Now()), NewID(PrefixEntity, time.Now())
	cases := []struct {
		name        string
		in          NewRelationship
		code, field string
	}{
		{"an edge", NewRelationship{TargetID: dst, Type: RelOwns}, "", ""},
		{"to itself", NewRelationship{TargetID: src, Type: RelOwns}, ECodeBusinessRule, "targetId"},
		{"without a target", NewRelationship{Type: RelOwns}, ECodeValidation, "targetId"},
		{"an unknown type", NewRelationship{TargetID: dst, Type: "likes"}, ECodeValidation, "type"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.in.Validate(src)
			if (c.code == "") != (err == nil) || (err != nil && ErrorCode(err) != c.code) {
				t.Fatalf("got %v, want %q", err, c.code)
			}
			if field, _ := firstDetail(err); field != c.field {
				t.Errorf("field %q, want %q", field, c.field)
			}
		})
	}
}

func TestGraphQueryValidate(t *testing.T) {
	q := GraphQuery{}
	if err := q.Validate(); err != nil || q.Depth != DefaultGraphDepth || q.Direction != DirectionBoth {
		t.Errorf("defaults: %+v %v", q, err)
	}
	for _, bad := range []GraphQuery{{Depth: 11}, {Depth: -1}, {Depth: 2, Direction: "sideways"}} {
		if ErrorCode(bad.Validate()) != ECodeValidation {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestPolicyValidate(t *testing.T) {
	p := NewPolicy{StandardID: " st_x ", Description: " d "}
	if err := p.Validate(); err != nil || p.StandardID != "st_x" || p.Description != "d" {
		t.Errorf("not normalised: %+v %v", p, err)
	}
	if field, _ := firstDetail((&NewPolicy{}).Validate()); field != "standardId" {
		t.Error("a policy without a standard is accepted")
	}
	lv := " lv "
	u := PolicyUpdate{Version: 1, LevelID: &lv}
	if err := u.Validate(); err != nil || *u.LevelID != "lv" {
		t.Errorf("update not normalised: %v", err)
	}
}
