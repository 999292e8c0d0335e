import { ColorInput, Select, TextInput } from '@mantine/core';
import {
  type ConfigurationModule,
  configurationModules,
  defaultTaskTypeColor,
} from '@mise/shared/tasks/constants';
import { type ScheduleWindow, validateSchedules } from '@mise/shared/tasks/rules';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../shared/ui/form-dialog';
import {
  RecurrenceEditor,
  SchedulesEditor,
  useSaveTaskType,
} from '../../task-configurations/editors';
import { type TypeDialogProps, TypeFormDialog } from './bulk-dialogs';

/*
 * The bulk task grid's dialogs (spec 001 §2.9), apart from the element grid's (bulk-dialogs.tsx)
 * so that the element grid does not load the task screen's editors.
 */

/* ---------- Type dialog ---------- */

/** Create a task type or edit one: name (not blank) and colour (default #454eff). */
export function TaskTypeDialog({ ownerId, ...props }: TypeDialogProps) {
  const { t } = useTranslation();
  const saveType = useSaveTaskType(props.level, ownerId);
  const [color, setColor] = useState(defaultTaskTypeColor);
  return (
    <TypeFormDialog
      {...props}
      title={t('bulk.types.taskTitle')}
      nameLabel={t('taskType.name')}
      nameError={t('errors.task-type/invalid-name')}
      save={saveType}
      extra={{
        values: { color },
        onChoose: (type) => setColor(type?.color ?? defaultTaskTypeColor),
        fields: (
          <ColorInput
            label={t('taskType.color')}
            format="hex"
            value={color}
            onChange={(next) => setColor(next || defaultTaskTypeColor)}
            data-testid="bulk-type-color"
          />
        ),
      }}
    />
  );
}

type NewTaskDialogProps = {
  /** Modules offered: Temperatures, Action, Oils, less those hidden. */
  modules: readonly ConfigurationModule[];
  opened: boolean;
  onClose: () => void;
  onCreate: (input: { name: string; module: ConfigurationModule; firstAction: string }) => void;
};

/**
 * A new task (spec 001 §2.9): a name, a module (Temperatures, Action or Oils) and, for an Action
 * task, its first action — the task screen's checks (name, select-module, task-action-required).
 */
export function NewTaskDialog({ modules, opened, onClose, onCreate }: NewTaskDialogProps) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [module, setModule] = useState<ConfigurationModule | null>(null);
  const [firstAction, setFirstAction] = useState('');
  const [isSubmitted, setIsSubmitted] = useState(false);
  const nameError = name.trim() === '' ? 'task-configuration/invalid-name' : null;
  const moduleError = module ? null : 'task-configuration.select-module';
  const actionError =
    module === 'actions' && firstAction.trim() === '' ? 'task-action-required' : null;

  function close() {
    setName('');
    setModule(null);
    setFirstAction('');
    setIsSubmitted(false);
    onClose();
  }

  function handleSubmit() {
    setIsSubmitted(true);
    if (nameError || moduleError || actionError || !module) return;
    onCreate({ name: name.trim(), module, firstAction: firstAction.trim() });
    close();
  }

  return (
    <FormDialog
      opened={opened}
      onClose={close}
      title={t('bulk.newTask')}
      primaryLabel={t('common.add')}
      onPrimary={handleSubmit}
      primaryTestId="bulk-new-submit"
      testId="bulk-new-dialog"
    >
      <TextInput
        label={t('taskConfiguration.fields.name')}
        value={name}
        maxLength={200}
        onChange={(event) => setName(event.currentTarget.value)}
        error={isSubmitted && nameError ? t(`errors.${nameError}`) : null}
        withAsterisk
        data-autofocus
        data-testid="bulk-new-name"
      />
      <Select
        label={t('taskConfiguration.fields.module')}
        placeholder={t('taskConfiguration.modulePlaceholder')}
        data={configurationModules
          .filter((candidate) => modules.includes(candidate))
          .map((candidate) => ({
            value: candidate,
            label: t(`taskConfiguration.modules.${candidate}`),
          }))}
        value={module}
        onChange={(value) => setModule(value as ConfigurationModule | null)}
        withAsterisk
        error={isSubmitted && moduleError ? t(`errors.${moduleError}`) : null}
        data-testid="bulk-new-module"
      />
      {module === 'actions' ? (
        <TextInput
          label={t('bulk.firstAction')}
          value={firstAction}
          maxLength={200}
          onChange={(event) => setFirstAction(event.currentTarget.value)}
          error={isSubmitted && actionError ? t(`errors.${actionError}`) : null}
          withAsterisk
          data-testid="bulk-new-action"
        />
      ) : null}
    </FormDialog>
  );
}

/* ---------- Recurrence and schedules (the task screen's editors, in a modal) ---------- */

type RecurrenceDialogProps = {
  opened: boolean;
  title: string;
  initialRule: string;
  onClose: () => void;
  onApply: (rule: string) => void;
};

/** The recurrence editor of the task screen, for one row or the checked rows. */
export function RecurrenceDialog({
  opened,
  title,
  initialRule,
  onClose,
  onApply,
}: RecurrenceDialogProps) {
  const { t } = useTranslation();
  const [rule, setRule] = useState(initialRule);
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={title}
      primaryLabel={t('common.ok')}
      onPrimary={() => onApply(rule)}
      primaryTestId="bulk-recurrence-submit"
      size="lg"
      testId="bulk-recurrence-dialog"
    >
      <RecurrenceEditor value={rule} onChange={setRule} isReadOnly={false} />
    </FormDialog>
  );
}

type ScheduleDialogProps = {
  opened: boolean;
  title: string;
  initialWindows: readonly ScheduleWindow[];
  onClose: () => void;
  onApply: (windows: ScheduleWindow[]) => void;
};

/**
 * The schedules of a task (start and end, 24 h): the task screen's editor, which refuses an
 * incoherent window with schedule-incoherent.
 */
export function ScheduleDialog({
  opened,
  title,
  initialWindows,
  onClose,
  onApply,
}: ScheduleDialogProps) {
  const { t } = useTranslation();
  const [windows, setWindows] = useState<ScheduleWindow[]>([...initialWindows]);
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={title}
      primaryLabel={t('common.ok')}
      onPrimary={() => onApply(windows)}
      isPrimaryDisabled={validateSchedules(windows) !== null}
      primaryTestId="bulk-schedule-submit"
      size="lg"
      testId="bulk-schedule-dialog"
    >
      <SchedulesEditor windows={windows} onChange={setWindows} isReadOnly={false} />
    </FormDialog>
  );
}
