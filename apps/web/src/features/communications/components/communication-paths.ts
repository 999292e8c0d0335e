/*
 * Where the communication screens are (flat routes, spec 002 §2): the selection travels in the
 * query, as for audits.
 */

/** The list, on a database. */
export function communicationsPath(databaseId: string): string {
  return `/communications?database=${encodeURIComponent(databaseId)}`;
}

/** The editor of a communication. */
export function communicationPath(communicationId: string): string {
  return `/communication?id=${encodeURIComponent(communicationId)}`;
}

/** The editor of a new communication of a database (created on its first save). */
export function newCommunicationPath(databaseId: string): string {
  return `/communication?database=${encodeURIComponent(databaseId)}`;
}

/** The statistics of a communication. */
export function communicationStatsPath(communicationId: string): string {
  return `/communicationStats?id=${encodeURIComponent(communicationId)}`;
}
