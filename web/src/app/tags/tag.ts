// TODO(generated-types): replace with the Tag schema type from src/api/schema.d.ts once
// the OpenAPI document carries the tag operations (GET /tags answers these fields and more).

/** TagOption is a tag as pickers and chips need it. */
export interface TagOption {
  id: string
  name: string
  color: string
}
