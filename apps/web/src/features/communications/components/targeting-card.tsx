import { Card, Loader, MultiSelect, Stack, Title } from '@mantine/core';
import type { TargetInput } from '@mise/shared/communications/schemas';
import type { TargetKind } from '@mise/shared/communications/targeting';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { storeLabel, TargetPicker, withPicked } from '../../../shared/content/target-picker';
import { useTargetRoles, useTargetStoresAndTags } from '../api/get-targeting-options';

type TargetingCardProps = {
  databaseId: string;
  target: TargetInput;
  /** The kind shown (kept apart from the lists: "stores" with none picked yet is a choice). */
  kind: TargetKind;
  onChange: (target: TargetInput, kind: TargetKind) => void;
};

/**
 * Who receives the communication (spec 002 §3 Target, §4 targeting): everyone, picked stores
 * or store groups (tags, matching any or all of them); picking one kind clears the other.
 * Employee roles narrow it further (none picked: every role).
 */
export function TargetingCard({ databaseId, target, kind, onChange }: TargetingCardProps) {
  const { t } = useTranslation();
  const storesAndTags = useTargetStoresAndTags(databaseId);
  const roles = useTargetRoles(databaseId);

  const storeOptions = useMemo(
    () => withPicked(storesAndTags.data?.stores ?? [], target.stores, storeLabel),
    [storesAndTags.data, target.stores],
  );
  const tagOptions = useMemo(
    () => withPicked(storesAndTags.data?.items ?? [], target.store_tags),
    [storesAndTags.data, target.store_tags],
  );
  const roleOptions = useMemo(
    () => withPicked(roles.data?.items ?? [], target.employee_roles),
    [roles.data, target.employee_roles],
  );

  return (
    <Card withBorder radius="md" data-testid="communication-targeting">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('communications.target.title')}
        </Title>
        <TargetPicker
          target={target}
          kind={kind}
          onChange={onChange}
          storeOptions={storeOptions}
          tagOptions={tagOptions}
          isLoading={storesAndTags.isPending}
          error={storesAndTags.error}
          everyoneHint={t('communications.target.everyoneHint')}
          testIdPrefix="communication-target"
        />
        <MultiSelect
          label={t('communications.target.roles')}
          description={t('communications.target.rolesHint')}
          placeholder={t('communications.target.rolesPlaceholder')}
          data={roleOptions}
          value={[...target.employee_roles]}
          onChange={(picked) => onChange({ ...target, employee_roles: picked }, kind)}
          searchable
          clearable
          hidePickedOptions
          nothingFoundMessage={t('common.nothingFound')}
          rightSection={roles.isPending ? <Loader size="xs" /> : undefined}
          data-testid="communication-target-roles"
        />
      </Stack>
    </Card>
  );
}
