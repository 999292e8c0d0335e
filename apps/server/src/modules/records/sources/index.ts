import type { ChainKind } from '../chain';
import { alertEpisodeSource } from './alert-episodes';
import { auditResultSource } from './audit-results';
import { probeReadingsDaySource } from './probe-readings-days';
import { punchEntryRevisionSource } from './punch-entry-revisions';
import { taskResultRevisionSource } from './task-result-revisions';
import type { ChainSource } from './types';

/** Every kind's source (one file per kind in this folder); the verifier walks them all. */
export const chainSources: Partial<Record<ChainKind, ChainSource<never>>> = {
  task_result_revision: taskResultRevisionSource as ChainSource<never>,
  punch_entry_revision: punchEntryRevisionSource as ChainSource<never>,
  alert_episode: alertEpisodeSource as ChainSource<never>,
  audit_result: auditResultSource as ChainSource<never>,
  probe_readings_day: probeReadingsDaySource as ChainSource<never>,
};
