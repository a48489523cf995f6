package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// publishedStandard finds a published standard of ASVS's size for the reads that published
// standards answer from memory (asvs-tree, asvs-tree-304): OWASP ASVS 5.0.0 itself (442
// requirements), imported with the starter set, which needs no network when the server
// was built with the documents (make go-build fetches them). Without them, and without the
// standards feed, the ASVS-sized draft of the seed is copied and published instead (the
// four-eyes approval by the second administrator); the table's footer says which.
func (s *seeder) publishedStandard(ctx context.Context) error {
	var imported struct {
		Standards []struct {
			ID, Name, StandardVersion string
		}
	}
	_, err := s.api.call(ctx, http.MethodPost, "/api/v1/standards/starter", s.cookie, nil, http.StatusCreated, &imported)
	if err == nil {
		for _, st := range imported.Standards {
			if strings.Contains(st.Name, "(ASVS)") && st.StandardVersion == "5.0.0" {
				s.data.PublishedStandardID, s.data.PublishedStandard = st.ID, "OWASP ASVS 5.0.0"
				return nil
			}
		}
		err = fmt.Errorf("the starter set has no ASVS 5.0.0")
	}
	if err := s.publishCopy(ctx); err != nil {
		return err
	}
	s.data.PublishedStandard = fmt.Sprintf("a published copy of the ASVS-sized draft (no starter set: %.120s)", err)
	return nil
}

// publishCopy duplicates the seeded ASVS-sized draft and publishes the copy.
func (s *seeder) publishCopy(ctx context.Context) error {
	var copied struct{ ID string }
	path := "/api/v1/standards/" + s.data.StandardID + "/duplicate"
	if _, err := s.api.call(ctx, http.MethodPost, path, s.cookie, map[string]any{"standardVersion": "5.0.0-published"},
		http.StatusCreated, &copied); err != nil {
		return err
	}
	path = "/api/v1/standards/" + copied.ID
	if _, err := s.api.call(ctx, http.MethodPost, path+"/submit", s.cookie, nil, http.StatusOK, nil); err != nil {
		return err
	}
	approver, err := s.api.login(ctx, seederName)
	if err != nil {
		return err
	}
	if _, err := s.api.call(ctx, http.MethodPost, path+"/approve", approver, nil, http.StatusOK, nil); err != nil {
		return err
	}
	s.data.PublishedStandardID = copied.ID
	return nil
}
