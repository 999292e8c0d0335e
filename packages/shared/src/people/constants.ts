/** Business constants of employees, roles, tags and punch cards (spec 000 §3–§9, spec 001 §3.9–§3.11, §5, §8). */
import { extensionKeys, moduleKeys } from '../organisation/constants';

/** A new employee is active, named 'Nouvel ' 'employé' (spec 001 §3.11: the trailing space is the spec's). */
export const newEmployeeName = 'Nouvel ';
export const newEmployeeSurname = 'employé';
/** Defaults of the tags and roles editors (spec 001 §5). */
export const newTagName = 'Nouveau tag';
export const newRoleName = 'Nouveau role';
/** Duplicate tag name toast lasts 1 s (spec 001 §8). */
export const duplicateTagToastMs = 1000;

/** What an employee role may grant: the extensions and the modules (spec 001 §3.10). */
export const featureKeys = [...extensionKeys, ...moduleKeys] as const;
export type FeatureKey = (typeof featureKeys)[number];

/** A new punch entry is one minute after the previous one (spec 000 §9). */
export const punchEntryStepMs = 60_000;
/** Longest punch-card range read or saved at once, in days (not in the spec: two months). */
export const maxPunchRangeDays = 62;

/** Punch-card CSV (spec 000 §9): semicolon, these columns, this file name. */
export const punchCardCsv = {
  separator: ';',
  columns: ['Etablissement', 'Employee', 'Date', 'Time', 'Arrivée'],
  fileName: 'punch_cards.csv',
  /** The Arrivée column: an entrance or an exit. */
  entrance: 'Oui',
  exit: 'Non',
} as const;

/** Employees per store and per save (a generous bound on a request). */
export const maxEmployeesPerStore = 500;
/** Tags and roles per database. */
export const maxTagsPerDatabase = 200;
export const maxRolesPerDatabase = 100;
