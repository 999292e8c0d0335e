import { ColorInput, Select, TextInput } from '@mantine/core';
import { saveErrorToastMs } from '@mise/shared/catalogue/constants';
import {
  type ConfigurationModule,
  configurationModules,
  defaultTaskTypeColor,
} from '@mise/shared/tasks/constants';
import { type ScheduleWindow, validateSchedules } from '@mise/shared/tasks/rules';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../shared/ui/form-dialog';
import { notifyApiError } from '../../../shared/ui/notify';
import {
  RecurrenceEditor,
  SchedulesEditor,
  useSaveTaskType,
} from '../../task-configurations/editors';
import { editableTypes, newTypeValue, type TypeDialogProps } from './bulk-dialogs';

/*
 * The bulk task grid's dialogs (spec 001 §2.9), apart from the element grid's (bulk-dialogs.tsx)
 * so that the element grid does not load the task screen's editors.
 */

/* ---------- Type dialog ---------- */

/** Create a task type or edit one: name (not blank) and colour (default #454eff). */
export function TaskTypeDialog({ level, ownerId, types, opened, onClose }: TypeDialogProps) {
  const { t } = useTranslation();
  const saveType = useSaveTaskType(level, ownerId);
  const [choice, setChoice] = useState(newTypeValue);
  const [name, setName] = useState('');
  const [color, setColor] = useState(defaultTaskTypeColor);
  const [isSubmitted, setIsSubmitted] = useState(false);
  const isNameMissing = name.trim() === '';
  const choices = editableTypes(level, types);

  function reset() {
    setChoice(newTypeValue);
    setName('');
    setColor(defaultTaskTypeColor);
    setIsSubmitted(false);
  }

  function handleChoice(value: string | null) {
    const next = value ?? newTypeValue;
    const type = types.find((candidate) => candidate.id === next);
    setChoice(next);
    setName(type?.name ?? '');
    setColor(type?.color ?? defaultTaskTypeColor);
  }

  function handleSubmit() {
    setIsSubmitted(true);
    if (isNameMissing) return;
    saveType.mutate(
      { id: choice === newTypeValue ? null : choice, name: name.trim(), color },
      {
        onSuccess: () => {
          reset();
          onClose();
        },
        onError: (error) => notifyApiError(error, { autoClose: saveErrorToastMs }),
      },
    );
  }

  return (
    <FormDialog
      opened={opened}
      onClose={() => {
        reset();
        onClose();
      }}
      title={t('bulk.types.taskTitle')}
      primaryLabel={choice === newTypeValue ? t('common.create') : t('common.save')}
      onPrimary={handleSubmit}
      isPrimaryLoading={saveType.isPending}
      primaryTestId="bulk-type-submit"
      testId="bulk-type-dialog"
    >
      <Select
        label={t('bulk.types.which')}
        data={[
          { value: newTypeValue, label: t('bulk.types.new') },
          ...choices.map((type) => ({ value: type.id, label: type.name })),
        ]}
        value={choice}
        onChange={handleChoice}
        allowDeselect={false}
        data-testid="bulk-type-choice"
      />
      <TextInput
        label={t('taskType.name')}
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={isSubmitted && isNameMissing ? t('errors.task-type/invalid-name') : null}
        withAsterisk
        data-autofocus
        data-testid="bulk-type-name"
      />
      <ColorInput
        label={t('taskType.color')}
        format="hex"
        value={color}
        onChange={(next) => setColor(next || defaultTaskTypeColor)}
        data-testid="bulk-type-color"
      />
    </FormDialog>
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
