package assess

import (
	"slices"
	"testing"
)

func TestDeliveryLogChannels(t *testing.T) {
	t.Parallel()
	for kind, want := range map[string][]string{
		DeliveryKindWebhook: {ChannelWebhook},
		DeliveryKindChat:    ChatPlatforms,
		DeliveryKindEmail:   {ChannelEmail},
	} {
		got, err := DeliveryLogChannels(kind)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %v %v", kind, got, err)
		}
	}
	_, err := DeliveryLogChannels("pigeon")
	wantCodeAndDetail(t, err, ECodeValidation, "")
}

func TestDeliveryFilterValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		f            DeliveryFilter
		code, detail string
	}{
		{DeliveryFilter{Kind: DeliveryKindWebhook}, "", ""},
		{DeliveryFilter{Kind: DeliveryKindEmail, Status: DeliverySkipped}, "", ""},
		{DeliveryFilter{Kind: DeliveryKindChat, Status: "lost"}, ECodeValidation, "invalid"},
		{DeliveryFilter{Kind: "pigeon"}, ECodeValidation, ""},
	}
	for _, tt := range tests {
		wantCodeAndDetail(t, tt.f.Validate(), tt.code, tt.detail)
	}
}

func TestDeliveryCheckRedeliver(t *testing.T) {
	t.Parallel()
	for status, finished := range map[string]bool{DeliveryPending: false, DeliveryRetrying: false, DeliverySucceeded: true,
		DeliveryFailed: true, DeliverySkipped: true} {
		err := Delivery{Status: status}.CheckRedeliver()
		if finished {
			wantCodeAndDetail(t, err, "", "")
		} else {
			wantCodeAndDetail(t, err, ECodeConflict, status)
		}
	}
}
