package assess

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestEveryPermissionHasWordsInEveryLocale: the web application names a permission in words
// ("needs Manage users and invites", not "needs admin.users") from its locales'
// permissionNames, so every key of the catalogue needs them there, in English the
// catalogue's own description.
func TestEveryPermissionHasWordsInEveryLocale(t *testing.T) {
	t.Parallel()
	for _, locale := range []string{"en", "de"} {
		raw, err := os.ReadFile("../../web/src/locales/" + locale + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var messages struct {
			PermissionNames map[string]map[string]string `json:"permissionNames"`
		}
		if err := json.Unmarshal(raw, &messages); err != nil {
			t.Fatal(err)
		}
		named := 0
		for _, p := range Permissions {
			group, name, _ := strings.Cut(string(p.Key), ".")
			words := messages.PermissionNames[group][name]
			switch {
			case words == "":
				t.Errorf("%s.json has no permissionNames.%s", locale, p.Key)
			case locale == "en" && words != p.Description:
				t.Errorf("en.json names %s %q, the catalogue %q", p.Key, words, p.Description)
			}
			named++
		}
		total := 0
		for _, names := range messages.PermissionNames {
			total += len(names)
		}
		if total != named {
			t.Errorf("%s.json names %d permissions, the catalogue has %d", locale, total, named)
		}
	}
}
