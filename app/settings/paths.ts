/** The path parameters of a project's REST routes. */
export const projectPath = (org: string, project: string) => ({ orgHandle: org, projectHandle: project });

/** A timestamp in the reader's own words and time zone. */
export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
