package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

func chatTask() assess.DeliveryTask {
	return assess.DeliveryTask{
		Delivery: assess.Delivery{ID: "dl_1", EventType: string(assess.EventUserCreated), Channel: assess.ChannelSlack},
		Envelope: []byte(`{"id":"evt_1","type":"user.created","timestamp":"2026-05-01T12:00:00Z","actor":{"id":"u_1","displayName":"Ada"},"data":{}}`),
		Title:    "User created", Summary: "bob <admin> & co", Link: "/admin/users?id=u_2", ActorName: "Ada Lovelace",
	}
}

// postChat sends the payload of platform to a local receiver and returns the body the
// receiver decoded into v.
func postChat(t *testing.T, platform string, v any) {
	t.Helper()
	got := make(chan *http.Request, 1)
	srv, _ := receiver(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		got <- r
		_, _ = io.WriteString(w, "ok")
	})
	body, err := ChatPayload(platform, NewMessage(chatTask(), "https://assay.example.com/"))
	require.NoError(t, err)
	client := NewHTTPClient(HTTPConfig{Timeout: 2 * time.Second, AllowNetworks: loopbackOnly, UserAgent: UserAgent("t")})
	res := client.PostJSON(context.Background(), srv.URL, body, nil)
	require.True(t, res.Succeeded(), res.Error())
	r := <-got
	require.Equal(t, "application/json", r.Header.Get("Content-Type"))
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(v))
}

const wantLink = "https://assay.example.com/admin/users?id=u_2"

type slackText struct {
	Type  string `json:"type"`
	Text  string `json:"text"`
	Emoji bool   `json:"emoji,omitempty"`
}

// slackMessage is the part of Slack's Block Kit schema the message uses; unknown fields
// fail the decode.
type slackMessage struct {
	Text   string `json:"text"`
	Blocks []struct {
		Type     string      `json:"type"`
		Text     *slackText  `json:"text,omitempty"`
		Fields   []slackText `json:"fields,omitempty"`
		Elements []struct {
			Type     string          `json:"type"`
			Text     json.RawMessage `json:"text"`
			URL      string          `json:"url,omitempty"`
			ActionID string          `json:"action_id,omitempty"`
		} `json:"elements,omitempty"`
	} `json:"blocks"`
}

func TestSlackMessageIsBlockKit(t *testing.T) {
	t.Parallel()
	var m slackMessage
	postChat(t, assess.ChannelSlack, &m)
	require.Equal(t, "User created: bob &lt;admin&gt; &amp; co", m.Text, "fallback text, escaped for mrkdwn")
	require.Len(t, m.Blocks, 4)
	types := []string{}
	for _, b := range m.Blocks {
		types = append(types, b.Type)
	}
	require.Equal(t, []string{"header", "section", "context", "actions"}, types)

	header := m.Blocks[0]
	require.Equal(t, "plain_text", header.Text.Type, "a header takes plain_text only")
	require.Equal(t, "User created", header.Text.Text)

	section := m.Blocks[1]
	require.NotEmpty(t, section.Fields)
	require.LessOrEqual(t, len(section.Fields), 10, "Slack allows at most 10 fields")
	for _, f := range section.Fields {
		require.Equal(t, "mrkdwn", f.Type)
	}
	require.Contains(t, section.Fields[0].Text, "user.created")
	require.Contains(t, section.Fields[1].Text, "bob &lt;admin&gt; &amp; co")

	ctx := m.Blocks[2]
	require.Len(t, ctx.Elements, 1)
	require.Equal(t, "mrkdwn", ctx.Elements[0].Type)
	require.JSONEq(t, `"by Ada Lovelace"`, string(ctx.Elements[0].Text))

	button := m.Blocks[3].Elements[0]
	require.Equal(t, "button", button.Type)
	require.JSONEq(t, `{"type":"plain_text","text":"Open in Assay"}`, string(button.Text))
	require.Equal(t, wantLink, button.URL)
}

type teamsMessage struct {
	Type        string `json:"type"`
	Attachments []struct {
		ContentType string  `json:"contentType"`
		ContentURL  *string `json:"contentUrl"`
		Content     struct {
			Schema  string `json:"$schema"`
			Type    string `json:"type"`
			Version string `json:"version"`
			Body    []struct {
				Type   string `json:"type"`
				Text   string `json:"text,omitempty"`
				Weight string `json:"weight,omitempty"`
				Size   string `json:"size,omitempty"`
				Wrap   bool   `json:"wrap,omitempty"`
				Facts  []struct {
					Title string `json:"title"`
					Value string `json:"value"`
				} `json:"facts,omitempty"`
			} `json:"body"`
			Actions []struct {
				Type  string `json:"type"`
				Title string `json:"title"`
				URL   string `json:"url"`
			} `json:"actions"`
		} `json:"content"`
	} `json:"attachments"`
}

func TestTeamsMessageCarriesAnAdaptiveCard(t *testing.T) {
	t.Parallel()
	var m teamsMessage
	postChat(t, assess.ChannelTeams, &m)
	require.Equal(t, "message", m.Type)
	require.Len(t, m.Attachments, 1)
	a := m.Attachments[0]
	require.Equal(t, "application/vnd.microsoft.card.adaptive", a.ContentType)
	require.Nil(t, a.ContentURL)
	card := a.Content
	require.Equal(t, "AdaptiveCard", card.Type)
	require.Equal(t, "1.4", card.Version)
	require.Equal(t, "http://adaptivecards.io/schemas/adaptive-card.json", card.Schema)
	require.Equal(t, "TextBlock", card.Body[0].Type)
	require.Equal(t, "User created", card.Body[0].Text)
	last := card.Body[len(card.Body)-1]
	require.Equal(t, "FactSet", last.Type)
	facts := map[string]string{}
	for _, f := range last.Facts {
		facts[f.Title] = f.Value
	}
	require.Equal(t, map[string]string{
		"Event": "user.created", "Record": "bob <admin> & co", "By": "Ada Lovelace", "When": "2026-05-01 12:00:00 UTC",
	}, facts)
	require.Len(t, card.Actions, 1)
	require.Equal(t, "Action.OpenUrl", card.Actions[0].Type)
	require.Equal(t, wantLink, card.Actions[0].URL)
}

type mattermostMessage struct {
	Username    string `json:"username"`
	Text        string `json:"text"`
	Attachments []struct {
		Fallback  string `json:"fallback"`
		Color     string `json:"color"`
		Title     string `json:"title"`
		TitleLink string `json:"title_link"`
		Text      string `json:"text"`
		Fields    []struct {
			Short bool   `json:"short"`
			Title string `json:"title"`
			Value string `json:"value"`
		} `json:"fields"`
	} `json:"attachments"`
}

func TestMattermostMessageHasAnAttachment(t *testing.T) {
	t.Parallel()
	var m mattermostMessage
	postChat(t, assess.ChannelMattermost, &m)
	require.Equal(t, "Assay", m.Username)
	require.Equal(t, "User created: bob <admin> & co", m.Text)
	require.Len(t, m.Attachments, 1)
	a := m.Attachments[0]
	require.NotEmpty(t, a.Fallback, "Mattermost requires a fallback")
	require.Regexp(t, `^#[0-9A-F]{6}$`, a.Color)
	require.Equal(t, "User created", a.Title)
	require.Equal(t, wantLink, a.TitleLink)
	require.NotEmpty(t, a.Fields)
	for _, f := range a.Fields {
		require.NotEmpty(t, f.Title)
		require.NotEmpty(t, f.Value)
	}
}

func TestChatPayloadRejectsUnknownPlatforms(t *testing.T) {
	t.Parallel()
	_, err := ChatPayload("irc", NewMessage(chatTask(), "https://a"))
	require.Error(t, err)
}

func TestNewMessageFallsBackToTheEnvelopeAndCatalogue(t *testing.T) {
	t.Parallel()
	task := chatTask()
	task.Title, task.ActorName, task.Link = "", "", ""
	m := NewMessage(task, "https://assay.example.com")
	require.Equal(t, "User created", m.Title, "from the catalogue")
	require.Equal(t, "Ada", m.Actor, "from the envelope")
	require.Equal(t, "https://assay.example.com/", m.URL)
	require.Equal(t, "evt_1", m.EventID)
	require.Equal(t, time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC), m.Time)
}
