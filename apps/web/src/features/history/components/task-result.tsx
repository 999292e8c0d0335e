import { Text } from '@mantine/core';
import type { TaskModule } from '@mise/shared/tasks/constants';
import {
  actionsResultSchema,
  oilsResultSchema,
  type taskElementSchema,
  temperatureControlResultSchema,
  temperaturesResultSchema,
  traceabilityResultSchema,
} from '@mise/shared/tasks/schemas';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ActionsResult } from './actions-result';
import { OilsResult } from './oils-result';
import { TemperatureControlResult } from './temperature-control-result';
import { TemperaturesResult } from './temperatures-result';
import { TraceabilityResult } from './traceability-result';

/** An element as the task copied it when generated (name and bounds). */
export type ResultElement = z.infer<typeof taskElementSchema>;

type TaskResultProps = {
  module: TaskModule;
  elements: readonly ResultElement[];
  result: unknown;
  /** The store's zone: reading times are on its clock. */
  timeZone: string;
  onOpenPicture: (path: string) => void;
};

const resultSchemas = {
  temperatures: temperaturesResultSchema,
  traceability: traceabilityResultSchema,
  actions: actionsResultSchema,
  oils: oilsResultSchema,
  temperature_control: temperatureControlResultSchema,
} as const;

/**
 * A task's result table by module (spec 002 §2), shared by history and task detail. A task
 * without a result, or a result of an unknown shape, says so instead of a table.
 */
export function TaskResult({ module, elements, result, timeZone, onOpenPicture }: TaskResultProps) {
  const { t } = useTranslation();
  const elementsById = useMemo(
    () => new Map(elements.map((element) => [element.id, element])),
    [elements],
  );
  if (result === null || result === undefined) {
    return (
      <Text size="sm" c="dimmed" data-testid="result-none">
        {t('history.noResult')}
      </Text>
    );
  }
  const unreadable = (
    <Text size="sm" c="dimmed" data-testid="result-unreadable">
      {t('history.unreadableResult')}
    </Text>
  );
  switch (module) {
    case 'temperatures': {
      const parsed = resultSchemas.temperatures.safeParse(result);
      return parsed.success ? (
        <TemperaturesResult
          result={parsed.data}
          elements={elementsById}
          timeZone={timeZone}
          onOpenPicture={onOpenPicture}
        />
      ) : (
        unreadable
      );
    }
    case 'traceability': {
      const parsed = resultSchemas.traceability.safeParse(result);
      return parsed.success ? (
        <TraceabilityResult
          result={parsed.data}
          elements={elementsById}
          onOpenPicture={onOpenPicture}
        />
      ) : (
        unreadable
      );
    }
    case 'actions': {
      const parsed = resultSchemas.actions.safeParse(result);
      return parsed.success ? (
        <ActionsResult result={parsed.data} onOpenPicture={onOpenPicture} />
      ) : (
        unreadable
      );
    }
    case 'oils': {
      const parsed = resultSchemas.oils.safeParse(result);
      return parsed.success ? (
        <OilsResult result={parsed.data} elements={elementsById} onOpenPicture={onOpenPicture} />
      ) : (
        unreadable
      );
    }
    case 'temperature_control': {
      const parsed = resultSchemas.temperature_control.safeParse(result);
      return parsed.success ? (
        <TemperatureControlResult
          result={parsed.data}
          elements={elementsById}
          timeZone={timeZone}
        />
      ) : (
        unreadable
      );
    }
    default:
      return unreadable;
  }
}
