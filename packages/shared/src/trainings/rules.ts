/*
 * Rules of trainings (spec 002 §4, §6, §9; issue 18), pure and shared by the server, the
 * back-office and the tablet.
 */

export const trainingTypes = ['global', 'distributor', 'database', 'store'] as const;
export type TrainingType = (typeof trainingTypes)[number];

export const trainingLanguages = ['fr', 'en'] as const;
export type TrainingLanguage = (typeof trainingLanguages)[number];

/** Spec 002 §9: the title of a new section. */
export const newSectionTitle = 'Nouvelle section';

export type TrainingRole = 'admin' | 'distributor' | 'manager' | 'customer';

/** What the training list is showing: a database (managers, distributors) or a store (customers). */
export type TrainingSelection = {
  databaseId?: string | null;
  storeId?: string | null;
  /** The distributor of a distributor account. */
  distributorId?: string | null;
};

/**
 * Spec 002 §4: a training's type and source from its creator's role and selection. A customer
 * gives a store training of the selected store; an admin a global one; a distributor a
 * distributor training of their distributor without a database selected, a database training
 * of the selected database with one; a manager a database training. Null when the selection
 * lacks what the role needs ('Please select a training source.').
 */
export function trainingTypeFor(
  role: TrainingRole,
  selection: TrainingSelection,
): { type: TrainingType; source: string | null } | null {
  switch (role) {
    case 'admin':
      return { type: 'global', source: null };
    case 'customer':
      return selection.storeId ? { type: 'store', source: selection.storeId } : null;
    case 'manager':
      return selection.databaseId ? { type: 'database', source: selection.databaseId } : null;
    case 'distributor':
      if (selection.databaseId) return { type: 'database', source: selection.databaseId };
      return selection.distributorId
        ? { type: 'distributor', source: selection.distributorId }
        : null;
  }
}

/**
 * Spec 002 §6 edit rights: customers only store trainings; distributors distributor and
 * database trainings; admins everything; managers only database trainings.
 */
export function canEditTrainingType(role: TrainingRole, type: TrainingType): boolean {
  switch (role) {
    case 'admin':
      return true;
    case 'customer':
      return type === 'store';
    case 'distributor':
      return type === 'distributor' || type === 'database';
    case 'manager':
      return type === 'database';
  }
}

/** Spec 002 §9 training stats chart: the last 10 days plus today, oldest first. */
export function trainingChartDays(today: string): string[] {
  const days: string[] = [];
  const base = Date.parse(`${today}T00:00:00Z`);
  for (let offset = 10; offset >= 0; offset -= 1) {
    days.push(new Date(base - offset * 86_400_000).toISOString().slice(0, 10));
  }
  return days;
}
