package cyclonedx

import (
	"cmp"
	"encoding/json"
	"strings"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
)

// feed is the part of a JSON Feed 1.1 document (the CycloneDX standards catalogue) that
// the catalogue reads.
type feed struct {
	Items []struct {
		ID            string `json:"id"`
		Title         string `json:"title"`
		Summary       string `json:"summary"`
		URL           string `json:"url"`
		ExternalURL   string `json:"external_url"`
		DatePublished string `json:"date_published"`
		Metadata      struct {
			Version string `json:"version"`
			Owner   string `json:"owner"`
		} `json:"_metadata"`
		Attachments []struct {
			URL      string `json:"url"`
			MimeType string `json:"mime_type"`
		} `json:"attachments"`
	} `json:"items"`
}

// maxFeedItems bounds what is read of a feed.
const maxFeedItems = 1000

// ParseFeed reads the standards feed: every item with an id and a document URL (its
// CycloneDX attachment, else external_url, else url), its version from _metadata (else
// the text after the id's last "@") and the identifier its document will get. Statuses
// are left to the caller. A document that is not a JSON feed is a 422 naming field.
func ParseFeed(field string, data []byte) ([]assess.FeedItem, error) {
	var f feed
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, documentProblem(field, "invalid_feed", "The standards feed is not a JSON feed: "+jsonReason(err)+".")
	}
	out := make([]assess.FeedItem, 0, len(f.Items))
	for _, it := range f.Items {
		if len(out) == maxFeedItems {
			break
		}
		url := it.ExternalURL
		for _, a := range it.Attachments {
			if a.MimeType == MediaType && a.URL != "" {
				url = a.URL
				break
			}
		}
		url = cmp.Or(url, it.URL)
		if it.ID == "" || url == "" {
			continue
		}
		version := it.Metadata.Version
		if i := strings.LastIndex(it.ID, "@"); version == "" && i >= 0 {
			version = it.ID[i+1:]
		}
		item := assess.FeedItem{ID: it.ID, Identifier: assess.FeedItemIdentifier(it.ID), Title: it.Title,
			Summary: it.Summary, Version: version, Owner: it.Metadata.Owner, URL: url, StandardIDs: []string{}}
		if t, err := time.Parse(time.RFC3339, it.DatePublished); err == nil {
			item.DatePublished = &t
		}
		out = append(out, item)
	}
	return out, nil
}
