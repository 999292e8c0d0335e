import {
  Button,
  Card,
  Checkbox,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { extensionKeys } from '@mise/shared/organisation/constants';
import { type FeatureKey, newRoleName } from '@mise/shared/people/constants';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyError, notifySuccess, saveErrorDurationMs } from '../../../shared/ui/notify';
import { QueryContent } from '../../../shared/ui/query-content';
import { useUnsavedChangesPrompt } from '../../../shared/ui/use-unsaved-changes-prompt';
import {
  type EmployeeRoles,
  employeeRolesQueryOptions,
  useEmployeeRoles,
} from '../api/get-employee-roles';
import { type SaveEmployeeRolesBody, useSaveEmployeeRoles } from '../api/save-employee-roles';

export type EmployeeRolesEditorProps = { databaseId: string };

type RoleDraft = {
  /** The id, or a local key for a role not saved yet. */
  key: string;
  id?: string;
  name: string;
  active: boolean;
  features_permissions: Partial<Record<FeatureKey, boolean>>;
};

function draftsFrom(data: EmployeeRoles): RoleDraft[] {
  return data.items.map((role) => ({
    key: role.id,
    id: role.id,
    name: role.name,
    active: role.active,
    features_permissions: { ...role.features_permissions },
  }));
}

/**
 * The body of a save: every role, each granting exactly the features the database offers
 * (a feature it hides is never sent: the server refuses to grant one).
 */
export function rolesSaveBody(
  roles: readonly RoleDraft[],
  availableFeatures: readonly FeatureKey[],
): SaveEmployeeRolesBody {
  return {
    roles: roles.map((role) => ({
      ...(role.id ? { id: role.id } : {}),
      name: role.name.trim(),
      active: role.active,
      features_permissions: Object.fromEntries(
        availableFeatures.map((key) => [key, role.features_permissions[key] === true]),
      ),
    })),
  };
}

/** Roles editor of a database (spec 001 §2.4, §3.10): names, active flags and granted features. */
export function EmployeeRolesEditor({ databaseId }: EmployeeRolesEditorProps) {
  const { t } = useTranslation();
  const query = useEmployeeRoles(databaseId);
  return (
    <QueryContent query={query} isEmpty={() => false} emptyTitle={t('employeeRoles.empty')}>
      {(data) => <RolesForm databaseId={databaseId} data={data} readAt={query.dataUpdatedAt} />}
    </QueryContent>
  );
}

let localKeySequence = 0;

/** The role of a fresh read that stands for the selected one: the same id, else the same name. */
function keptSelection(next: readonly RoleDraft[], previous: RoleDraft | undefined): string | null {
  if (previous === undefined) return next[0]?.key ?? null;
  const kept =
    next.find((role) => role.key === previous.key) ??
    next.find((role) => role.name.trim() === previous.name.trim());
  return kept?.key ?? next[0]?.key ?? null;
}

type RolesFormProps = {
  databaseId: string;
  data: EmployeeRoles;
  /** When `data` was read: a read older than the one the form took is not taken again. */
  readAt: number;
};

function RolesForm({ databaseId, data, readAt }: RolesFormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const saveMutation = useSaveEmployeeRoles(databaseId);
  const [roles, setRoles] = useState<RoleDraft[]>(() => draftsFrom(data));
  const [takenReadAt, setTakenReadAt] = useState(readAt);
  const [isDirty, setIsDirty] = useState(false);
  const [selectedKey, setSelectedKey] = useState<string | null>(data.items[0]?.id ?? null);
  const isEditable = data.editable;
  useUnsavedChangesPrompt(isDirty);

  // A fresh read replaces the draft unless the user is editing it (a render still carrying the
  // read from before a save is not fresh); the selection follows the role by id, else by name.
  if (readAt > takenReadAt) {
    setTakenReadAt(readAt);
    if (!isDirty) {
      const next = draftsFrom(data);
      setRoles(next);
      setSelectedKey(
        keptSelection(
          next,
          roles.find((role) => role.key === selectedKey),
        ),
      );
    }
  }

  const selected = roles.find((role) => role.key === selectedKey) ?? null;

  function updateRole(key: string, change: Partial<RoleDraft>) {
    setRoles((current) =>
      current.map((role) => (role.key === key ? { ...role, ...change } : role)),
    );
    setIsDirty(true);
  }

  function handleAdd() {
    localKeySequence += 1;
    const key = `new-${localKeySequence}`;
    setRoles((current) => [
      ...current,
      { key, name: newRoleName, active: true, features_permissions: {} },
    ]);
    setSelectedKey(key);
    setIsDirty(true);
  }

  function handleFeature(feature: FeatureKey, isGranted: boolean) {
    if (!selected) return;
    updateRole(selected.key, {
      features_permissions: { ...selected.features_permissions, [feature]: isGranted },
    });
  }

  async function handleSave() {
    if (roles.some((role) => role.name.trim() === '')) {
      notifyError(t('errors.employee-role/invalid-name'), { autoClose: saveErrorDurationMs });
      return;
    }
    const previous = roles.find((role) => role.key === selectedKey);
    try {
      await saveMutation.mutateAsync(rolesSaveBody(roles, data.available_features));
      // Take the saved roles (with their ids) from the read that follows the save.
      const options = employeeRolesQueryOptions(databaseId);
      const next = draftsFrom(await queryClient.fetchQuery(options));
      setRoles(next);
      setTakenReadAt(queryClient.getQueryState(options.queryKey)?.dataUpdatedAt ?? Date.now());
      setSelectedKey(keptSelection(next, previous));
      setIsDirty(false);
      notifySuccess(t('common.savedSuccessfully'));
    } catch (error) {
      notifyError(errorMessage(t, error), { autoClose: saveErrorDurationMs });
    }
  }

  function featureLabel(feature: FeatureKey): string {
    return (extensionKeys as readonly string[]).includes(feature)
      ? t(`modules.extension.${feature}`)
      : t(`modules.module.${feature}`);
  }

  return (
    <Card withBorder radius="md" data-testid="roles-editor">
      <Group justify="space-between" mb="md">
        <Title order={4}>{t('employeeRoles.title')}</Title>
        {isEditable ? (
          <Group gap="sm">
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              onClick={handleAdd}
              data-testid="role-add"
            >
              {t('employeeRoles.add')}
            </Button>
            <LoadingButton
              onClick={handleSave}
              loading={saveMutation.isPending}
              data-testid="role-save"
            >
              {t('common.save')}
            </LoadingButton>
          </Group>
        ) : (
          <Text size="sm" c="dimmed" data-testid="roles-read-only">
            {t('employeeRoles.readOnly')}
          </Text>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="xs">
          {roles.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="roles-empty">
              {t('employeeRoles.empty')}
            </Text>
          ) : null}
          {roles.map((role) => {
            const isSelected = role.key === selectedKey;
            return (
              <Paper
                key={role.key}
                withBorder
                p="xs"
                radius="sm"
                bg={isSelected ? 'var(--mantine-primary-color-light)' : undefined}
                onClick={() => setSelectedKey(role.key)}
                aria-selected={isSelected}
                style={{ cursor: 'pointer' }}
                data-testid="role-row"
                data-role-id={role.id ?? ''}
              >
                <Group gap="sm" wrap="nowrap">
                  <TextInput
                    value={role.name}
                    onChange={(event) => updateRole(role.key, { name: event.currentTarget.value })}
                    onFocus={() => setSelectedKey(role.key)}
                    readOnly={!isEditable}
                    aria-label={t('employeeRoles.name')}
                    style={{ flex: 1 }}
                    data-testid="role-name-input"
                  />
                  <Switch
                    checked={role.active}
                    onChange={(event) =>
                      updateRole(role.key, { active: event.currentTarget.checked })
                    }
                    disabled={!isEditable}
                    label={t('common.active')}
                    data-testid="role-active"
                  />
                </Group>
              </Paper>
            );
          })}
        </Stack>
        <Stack gap="xs" data-testid="role-features">
          <Title order={5}>
            {selected
              ? t('employeeRoles.extensionsOf', { name: selected.name })
              : t('employeeRoles.extensions')}
          </Title>
          {selected ? (
            data.available_features.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('employeeRoles.noFeature')}
              </Text>
            ) : (
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
                {data.available_features.map((feature) => (
                  <Checkbox
                    key={feature}
                    label={featureLabel(feature)}
                    checked={selected.features_permissions[feature] === true}
                    onChange={(event) => handleFeature(feature, event.currentTarget.checked)}
                    disabled={!isEditable}
                    data-testid={`role-feature-${feature}`}
                  />
                ))}
              </SimpleGrid>
            )
          ) : (
            <Text size="sm" c="dimmed">
              {t('employeeRoles.selectRole')}
            </Text>
          )}
        </Stack>
      </SimpleGrid>
    </Card>
  );
}
