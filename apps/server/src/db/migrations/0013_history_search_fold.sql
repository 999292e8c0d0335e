-- History's word search ignores case and accents ('congelateur' finds 'Congélateur'): both
-- the searched text and the words are folded by mise_search_fold (lower case, accents removed
-- by the unaccent extension, trusted since PostgreSQL 13 and shipped with PGlite). unaccent()
-- itself is only STABLE (its dictionary could change); the wrapper names the dictionary
-- explicitly, which makes it safe to declare IMMUTABLE and to index.
-- mise_task_search_text is the one definition of a task's searched text (name, employee,
-- element and action names, result comments), IMMUTABLE so that it can be indexed; history
-- reads it on the rows the (store, module, start) index selects (see history-page.ts: a trigram
-- index on it made common words slower). Function bodies name their schema: PostgreSQL 17
-- (PGlite) runs index builds and some maintenance with a safe search_path.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE OR REPLACE FUNCTION mise_search_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION mise_task_search_text(
  name text, employee jsonb, elements jsonb, actions jsonb, result jsonb
) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT public.mise_search_fold(
    name || ' ' || coalesce(employee->>'name', '') || ' ' || coalesce(employee->>'surname', '')
    || ' ' || coalesce(jsonb_path_query_array(elements, '$[*].name')::text, '')
    || ' ' || coalesce(jsonb_path_query_array(actions, '$[*].name')::text, '')
    || ' ' || coalesce(jsonb_path_query_array(result, '$.entries[*].comment')::text, '')
  ) $$;
