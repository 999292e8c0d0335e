import {
  Button,
  Card,
  Grid,
  Group,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import type { Quiz } from '@mise/shared/communications/schemas';
import { trainingLanguages } from '@mise/shared/trainings/rules';
import { type Training, trainingLimits } from '@mise/shared/trainings/schemas';
import { IconArrowLeft, IconChartBar } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IssueAlert, useDraftEditor } from '../../../shared/content/use-draft-editor';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { PageHeader } from '../../../shared/ui/page-header';
import { trainingQueryOptions } from '../api/get-training';
import { useSaveTraining } from '../api/save-training';
import { CategorySelect } from './category-select';
import { SectionContent, type SectionTab } from './section-content';
import { SectionsPanel } from './sections-panel';
import {
  addSection,
  bodyOf,
  draftOf,
  firstQuestionOf,
  hasTargetCard,
  removeSection,
  type SectionDraft,
  type TrainingDraft,
  type TrainingIssue,
  type TrainingOwner,
  updateSection,
  uploadOwnerOf,
  validateDraft,
} from './training-draft';
import {
  listSourceOf,
  type TrainingListSource,
  trainingPath,
  trainingStatsPath,
  trainingsPath,
  trainingsPathOf,
} from './training-paths';
import { TrainingTargetCard } from './training-target-card';

const newId = () => crypto.randomUUID();

/** The refusals of a save shown in the editor's alert (the others are toasts). */
const issueCodes: readonly string[] = [
  'training/name-required',
  'training/attachment-required',
  'training/attachment-invalid',
  'training/no-valid-answer',
];

type TrainingEditorProps = {
  /** Null for a new training made from `source`. */
  training: Training | null;
  /** Who owns it: the training's type and source, or what the role and selection give. */
  owner: TrainingOwner;
  /** The list's selection a new training is made from (sent with the creation). */
  source: TrainingListSource;
};

/**
 * The training editor (spec 002 §2, §4, §5): name, language, category, required, active and
 * save; the target of a database or distributor training; the sections (add, rename, delete,
 * select) and the selected one's attachment and quiz. It works on a copy that Save sends; the
 * server's checks run first.
 */
export function TrainingEditor({ training, owner, source }: TrainingEditorProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const saveMutation = useSaveTraining();
  const languageLabelId = useId();

  const [selectedSectionId, setSelectedSectionId] = useState<string | null>(
    () => training?.sections[0]?.id ?? null,
  );
  const [selectedQuestionId, setSelectedQuestionId] = useState<string | null>(
    () => training?.sections[0]?.quiz.questions[0]?.id ?? null,
  );
  const [tab, setTab] = useState<SectionTab>('attachment');
  const selectedSectionRef = useRef(selectedSectionId);

  const { saved, draft, draftRef, setDraft, issue, setIssue, handleSave } = useDraftEditor<
    Training,
    TrainingDraft,
    TrainingIssue
  >({
    record: training,
    draftOf: (record) => draftOf(record, newId),
    validate: validateDraft,
    issueCodes,
    save: async (current, before) => {
      const body = bodyOf(current);
      const response = before
        ? await saveMutation.mutateAsync({
            kind: 'update',
            trainingId: before.id,
            body: { ...body, version: before.version },
          })
        : await saveMutation.mutateAsync({
            kind: 'create',
            body: { ...body, database_id: source.databaseId, store_id: source.storeId },
          });
      return response.training;
    },
    reload: async (before) =>
      (await queryClient.fetchQuery({ ...trainingQueryOptions(before.id), staleTime: 0 })).training,
    pathOf: (created) => trainingPath(created.id),
    reloadLabel: t('trainings.editor.reload'),
    onIssue: (found) => {
      if (found.code === 'training/no-valid-answer') setTab('quiz');
      if (found.code === 'training/attachment-required') setTab('attachment');
      if (!found.sectionId) return;
      setSelectedSectionId(found.sectionId);
      setSelectedQuestionId(
        found.questionId ??
          firstQuestionOf(
            draftRef.current.sections.find((section) => section.id === found.sectionId),
          ),
      );
    },
    onReset: (nextDraft) => {
      // The selected section stays when the saved training still has it.
      const current = selectedSectionRef.current;
      if (nextDraft.sections.some((section) => section.id === current)) return;
      setSelectedSectionId(nextDraft.sections[0]?.id ?? null);
      setSelectedQuestionId(firstQuestionOf(nextDraft.sections[0]));
    },
  });

  // A new training's blank section is selected from the start (its id is made with the draft).
  const selectedSection =
    draft.sections.find((section) => section.id === selectedSectionId) ?? draft.sections[0];
  const sectionIssue = issue && issue.sectionId === selectedSection?.id ? issue : null;
  selectedSectionRef.current = selectedSection?.id ?? null;

  function changeSections(change: (sections: SectionDraft[]) => SectionDraft[]) {
    setDraft((current) => ({ ...current, sections: change(current.sections) }));
  }

  /** Spec 002 §4: selecting a section selects its first question. */
  function selectSection(sectionId: string | null) {
    setSelectedSectionId(sectionId);
    setSelectedQuestionId(
      firstQuestionOf(draftRef.current.sections.find((section) => section.id === sectionId)),
    );
  }

  function handleAddSection() {
    const id = newId();
    changeSections((sections) => addSection(sections, id));
    setSelectedSectionId(id);
    setSelectedQuestionId(null);
  }

  function handleRemoveSection(sectionId: string) {
    const result = removeSection(draftRef.current.sections, sectionId);
    changeSections(() => result.sections);
    if (selectedSection?.id === sectionId) selectSection(result.selectedSectionId);
    setIssue((current) => (current?.sectionId === sectionId ? null : current));
  }

  return (
    <>
      <PageHeader
        title={draft.name.trim() || t('trainings.editor.newTitle')}
        subtitle={t(`trainings.types.${owner.type}`)}
        actions={
          <>
            <Button
              component={Link}
              to={saved ? trainingsPathOf(saved) : trainingsPath(source)}
              variant="subtle"
              leftSection={<IconArrowLeft size={16} aria-hidden />}
              data-testid="training-back"
            >
              {t('trainings.back')}
            </Button>
            {saved ? (
              <Button
                component={Link}
                to={trainingStatsPath(saved.id)}
                variant="default"
                leftSection={<IconChartBar size={16} aria-hidden />}
                data-testid="training-open-stats"
              >
                {t('trainings.openStats')}
              </Button>
            ) : null}
            <LoadingButton onClick={handleSave} data-testid="training-save">
              {t('common.save')}
            </LoadingButton>
          </>
        }
      />
      <Stack gap="md">
        {issue ? (
          <IssueAlert
            title={t('trainings.editor.issueTitle')}
            issue={issue}
            onClose={() => setIssue(null)}
            testId="training-issue"
          />
        ) : null}
        <Card withBorder radius="md">
          <Stack gap="sm">
            <TextInput
              label={t('trainings.editor.name')}
              value={draft.name}
              onChange={(event) => {
                const name = event.currentTarget.value;
                setDraft((current) => ({ ...current, name }));
              }}
              maxLength={trainingLimits.nameMax}
              withAsterisk
              error={
                issue?.code === 'training/name-required'
                  ? t('errors.training/name-required')
                  : undefined
              }
              data-testid="training-name"
            />
            <Group align="flex-end" gap="md" wrap="wrap">
              <Stack gap={4}>
                <Text size="sm" fw={500} id={languageLabelId}>
                  {t('trainings.editor.language')}
                </Text>
                <SegmentedControl
                  value={draft.lang}
                  onChange={(value) => {
                    const lang = value === 'en' ? 'en' : 'fr';
                    setDraft((current) => ({ ...current, lang }));
                  }}
                  data={trainingLanguages.map((value) => ({
                    value,
                    label: t(`trainings.languages.${value}`),
                  }))}
                  aria-labelledby={languageLabelId}
                  data-testid="training-language"
                />
              </Stack>
              <div style={{ flex: 1, minWidth: 220, maxWidth: 420 }}>
                <CategorySelect
                  source={listSourceOf(owner)}
                  value={draft.category_id}
                  current={saved?.category ?? null}
                  onChange={(categoryId) =>
                    setDraft((current) => ({ ...current, category_id: categoryId }))
                  }
                />
              </div>
            </Group>
            <Group gap="xl" wrap="wrap">
              <Switch
                label={t('trainings.editor.required')}
                description={t('trainings.editor.requiredHint')}
                checked={draft.required}
                onChange={(event) => {
                  const required = event.currentTarget.checked;
                  setDraft((current) => ({ ...current, required }));
                }}
                data-testid="training-required"
              />
              <Switch
                label={t('common.active')}
                description={saved ? undefined : t('trainings.editor.inactiveHint')}
                checked={draft.active}
                onChange={(event) => {
                  const active = event.currentTarget.checked;
                  setDraft((current) => ({ ...current, active }));
                }}
                data-testid="training-active"
              />
            </Group>
          </Stack>
        </Card>
        {hasTargetCard(owner) ? (
          <TrainingTargetCard
            owner={owner}
            target={draft.target}
            onChange={(target) => setDraft((current) => ({ ...current, target }))}
          />
        ) : null}
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <SectionsPanel
              sections={draft.sections}
              selectedSectionId={selectedSection?.id ?? null}
              invalidSectionId={issue?.sectionId ?? null}
              onSelect={selectSection}
              onAdd={handleAddSection}
              onRename={(sectionId, title) =>
                changeSections((sections) =>
                  updateSection(sections, sectionId, (section) => ({ ...section, title })),
                )
              }
              onRemove={handleRemoveSection}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            {selectedSection ? (
              <SectionContent
                section={selectedSection}
                tab={tab}
                onTabChange={setTab}
                uploadOwner={uploadOwnerOf(owner)}
                selectedQuestionId={selectedQuestionId}
                onSelectQuestion={setSelectedQuestionId}
                issue={sectionIssue}
                onAttachment={(attachment) => {
                  const sectionId = selectedSection.id;
                  changeSections((sections) =>
                    updateSection(sections, sectionId, (section) => ({ ...section, attachment })),
                  );
                  setIssue((current) =>
                    current?.code === 'training/attachment-required' &&
                    current.sectionId === sectionId
                      ? null
                      : current,
                  );
                }}
                onQuiz={(change: (quiz: Quiz) => Quiz) => {
                  const sectionId = selectedSection.id;
                  changeSections((sections) =>
                    updateSection(sections, sectionId, (section) => ({
                      ...section,
                      quiz: change(section.quiz),
                    })),
                  );
                }}
              />
            ) : null}
          </Grid.Col>
        </Grid>
      </Stack>
    </>
  );
}
