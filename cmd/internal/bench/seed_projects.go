package main

import (
	"context"
	"fmt"
	"net/http"
)

// seedProjects is how many projects the seed creates besides the demo organisation's two.
const seedProjects = 300

// projects loads the demo organisation, then creates seedProjects projects, each covering
// the demo's entities of one demo project and carrying one of the demo tags, spread over
// the project states new and in_progress.
func (s *seeder) projects(ctx context.Context) error {
	if _, err := s.api.call(ctx, http.MethodPost, "/api/v1/admin/demo-data", s.cookie, nil, http.StatusOK, nil); err != nil {
		return err
	}
	type ref struct{ ID string }
	var demo struct {
		Items []struct {
			ID       string
			Entities []ref
		}
	}
	if _, err := s.api.call(ctx, http.MethodGet, "/api/v1/projects?limit=50", s.cookie, nil, http.StatusOK, &demo); err != nil {
		return err
	}
	var tags struct{ Items []ref }
	if _, err := s.api.call(ctx, http.MethodGet, "/api/v1/tags?limit=50", s.cookie, nil, http.StatusOK, &tags); err != nil {
		return err
	}
	if len(demo.Items) == 0 || len(tags.Items) == 0 {
		return fmt.Errorf("the demo data has no projects or tags")
	}
	for _, p := range demo.Items {
		s.data.ProjectIDs = append(s.data.ProjectIDs, p.ID)
	}
	states := []string{"new", "in_progress"}
	for i := range seedProjects {
		var entities []string
		for _, e := range demo.Items[i%len(demo.Items)].Entities {
			entities = append(entities, e.ID)
		}
		body := map[string]any{"name": fmt.Sprintf("Bench project %04d", i), "state": states[i%len(states)],
			"dueDate": fmt.Sprintf("2030-%02d-%02d", i%12+1, i%28+1), "entityIds": entities,
			"tagIds": []string{tags.Items[i%len(tags.Items)].ID}}
		var created ref
		if _, err := s.api.call(ctx, http.MethodPost, "/api/v1/projects", s.cookie, body, http.StatusCreated, &created); err != nil {
			return err
		}
		s.data.ProjectIDs = append(s.data.ProjectIDs, created.ID)
	}
	return nil
}
