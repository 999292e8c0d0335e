import { listMemory } from '../../../shared/ui/list-memory';

/*
 * What the communications list remembers: the database last chosen (across visits and
 * reloads), the search and the inactive toggle (for the session), as the audits list does.
 * Keys `mise.communications.database` and `mise.communications.filter`.
 */
const memory = listMemory('communications');

export const readCommunicationDatabase = memory.readChoice;
export const rememberCommunicationDatabase = memory.rememberChoice;
export const readListFilter = memory.readFilter;
export const rememberListFilter = memory.rememberFilter;
