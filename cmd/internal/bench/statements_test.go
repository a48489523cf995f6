package main

import "testing"

// TestPlannedPerCall marks a statement planned on (almost) every call, and not one planned
// once per connection and then run on its generic or cached plan.
func TestPlannedPerCall(t *testing.T) {
	for _, c := range []struct {
		calls, plans int64
		want         bool
	}{
		{9595, 9601, true},  // a project's entities: planned each time, and again when invalidated
		{3501, 3509, true},  // the completion check
		{1000, 900, true},   // nine in ten
		{1000, 899, false},  // fewer
		{4034, 8, false},    // generic plans, one per connection
		{9595, 2079, false}, // planned a fifth of the time
		{32, 32, false},     // too few calls to tell (each connection plans its first runs)
		{0, 0, false},
	} {
		if got := plannedPerCall(c.calls, c.plans); got != c.want {
			t.Errorf("plannedPerCall(%d, %d) = %v, want %v", c.calls, c.plans, got, c.want)
		}
	}
}
