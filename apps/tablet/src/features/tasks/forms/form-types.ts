import type {
  actionsResultSchema,
  oilsResultSchema,
  pictureSchema,
  temperaturesResultSchema,
} from '@mise/shared/tasks/schemas';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import type { DeviceElement, DeviceTask } from '../../../shared/api/types';
import { serverNow } from '../../../shared/device/device-state';

/** A picture of a result: `local:<id>` (storePicture) until the outbox uploads it. */
export type ResultPicture = z.infer<typeof pictureSchema>;
export type TemperaturesResult = z.infer<typeof temperaturesResultSchema>;
export type ActionsResult = z.infer<typeof actionsResultSchema>;
export type OilsResult = z.infer<typeof oilsResultSchema>;

/** What every module form of a scheduled task receives from the task screen. */
export type TaskFormProps<Result> = {
  task: DeviceTask;
  /** The store's elements by id (picture settings, polarity maximum). */
  elements: ReadonlyMap<string, DeviceElement>;
  /**
   * The recorded (or waiting) result: shown read-only, or the start of a correction. Read
   * defensively (resultEntries): a stored record may predate the current shape.
   */
  initialResult: unknown;
  isReadOnly: boolean;
  /** Fields shown above the send button (a correction's reason), and whether they are filled. */
  footer?: ReactNode;
  isFooterComplete?: boolean;
  onSubmit: (result: Result) => Promise<void>;
};

/** Seconds since the epoch on the server's clock (results carry seconds). */
export function nowSeconds(): number {
  return Math.floor(serverNow().getTime() / 1000);
}

/** The schema's bounds of a temperature (°C). */
export const temperatureBounds = { minimum: -273, maximum: 1000 } as const;

export function isPossibleTemperature(value: number | null): boolean {
  return (
    value === null || (value >= temperatureBounds.minimum && value <= temperatureBounds.maximum)
  );
}

/** A stored result of the form's module, or null when it has another shape. */
export function resultEntries<Entry>(result: unknown): Entry[] | null {
  if (!result || typeof result !== 'object') return null;
  const entries = (result as { entries?: unknown }).entries;
  return Array.isArray(entries) ? (entries as Entry[]) : null;
}
