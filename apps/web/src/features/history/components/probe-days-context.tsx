import type { ProbeDay, ProbeElement } from '@mise/shared/history/schemas';
import { createContext, type ReactNode, useContext, useMemo } from 'react';

/**
 * The probe days of the history's period (issue 15), found by a task's element id (the store
 * element or, for an override, its origin: a task's snapshot may name either) and store day.
 * History provides it; elsewhere (task detail) no probe line is shown.
 */
export type ProbeDayLookup = (
  elementId: string,
  day: string,
) => { element: ProbeElement; day: ProbeDay } | null;

const ProbeDaysContext = createContext<ProbeDayLookup | null>(null);

export function ProbeDaysProvider({
  elements,
  children,
}: {
  elements: readonly ProbeElement[] | undefined;
  children: ReactNode;
}) {
  const lookup = useMemo<ProbeDayLookup | null>(() => {
    if (!elements || elements.length === 0) return null;
    const byId = new Map<string, ProbeElement>();
    for (const element of elements) if (element.origin_id) byId.set(element.origin_id, element);
    for (const element of elements) byId.set(element.element_id, element);
    return (elementId, day) => {
      const element = byId.get(elementId);
      const found = element?.days.find((item) => item.day === day);
      return element && found ? { element, day: found } : null;
    };
  }, [elements]);
  return <ProbeDaysContext.Provider value={lookup}>{children}</ProbeDaysContext.Provider>;
}

export function useProbeDays(): ProbeDayLookup | null {
  return useContext(ProbeDaysContext);
}
