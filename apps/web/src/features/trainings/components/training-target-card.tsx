import { Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import type { TargetInput } from '@mise/shared/communications/schemas';
import { type TargetKind, targetKind } from '@mise/shared/communications/targeting';
import { IconFilter } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { storeLabel, TargetPicker, withPicked } from '../../../shared/content/target-picker';
import { useTargetStoresAndTags } from '../api/get-target-stores';
import type { TrainingOwner } from './training-draft';

type TargetModalProps = {
  owner: TrainingOwner;
  opened: boolean;
  target: TargetInput;
  onApply: (target: TargetInput) => void;
  onClose: () => void;
};

/**
 * The filter dialog (spec 002 §2): everyone, stores or groups, picking one clearing the other
 * (§4); a database training picks among its database's stores and store groups, a distributor
 * training among all the distributor's stores (§6). Apply keeps the choice in the draft.
 */
function TargetModal({ owner, opened, target, onApply, onClose }: TargetModalProps) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState(target);
  const [kind, setKind] = useState<TargetKind>(() => targetKind(target));
  const options = useTargetStoresAndTags(owner, opened);
  const storeOptions = useMemo(
    () => withPicked(options.data?.stores ?? [], picked.stores, storeLabel),
    [options.data, picked.stores],
  );
  const tags = options.data?.tags;
  const tagOptions = useMemo(
    () => (tags === null ? null : withPicked(tags ?? [], picked.store_tags)),
    [tags, picked.store_tags],
  );
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('trainings.target.modalTitle')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="training-target-modal"
    >
      <Stack gap="md">
        <TargetPicker
          target={picked}
          kind={kind}
          onChange={(next, nextKind) => {
            setPicked(next);
            setKind(nextKind);
          }}
          storeOptions={storeOptions}
          tagOptions={owner.type === 'database' ? tagOptions : null}
          isLoading={options.isPending}
          error={options.error}
          everyoneHint={
            owner.type === 'database'
              ? t('trainings.target.everyoneDatabase')
              : t('trainings.target.everyoneDistributor')
          }
          testIdPrefix="training-target"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => onApply(picked)} data-testid="training-target-apply">
            {t('trainings.target.apply')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

type TrainingTargetCardProps = {
  owner: TrainingOwner;
  target: TargetInput;
  onChange: (target: TargetInput) => void;
};

/**
 * Who a database or distributor training is for (spec 002 §2): 'Tout le monde' (everyone)
 * without stores or store groups, else 'Ciblée' (targeted) with their counts; the button opens
 * the filter dialog.
 */
export function TrainingTargetCard({ owner, target, onChange }: TrainingTargetCardProps) {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  const kind = targetKind(target);
  return (
    <Card withBorder radius="md" data-testid="training-target">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Title order={2} size="h4">
            {t('trainings.target.title')}
          </Title>
          <Text fw={600} data-testid="training-target-state" data-kind={kind}>
            {kind === 'everyone' ? t('trainings.target.everyone') : t('trainings.target.targeted')}
          </Text>
          {kind === 'everyone' ? null : (
            <Text size="sm" c="dimmed" data-testid="training-target-counts">
              {kind === 'stores'
                ? t('trainings.target.storeCount', { count: target.stores.length })
                : `${t('trainings.target.groupCount', { count: target.store_tags.length })} · ${
                    target.store_tags_union
                      ? t('content.target.union')
                      : t('content.target.intersection')
                  }`}
            </Text>
          )}
        </Stack>
        <Button
          variant="light"
          leftSection={<IconFilter size={16} aria-hidden />}
          onClick={() => setIsOpen(true)}
          data-testid="training-target-open"
        >
          {t('trainings.target.change')}
        </Button>
      </Group>
      {isOpen ? (
        <TargetModal
          owner={owner}
          opened={isOpen}
          target={target}
          onApply={(next) => {
            onChange(next);
            setIsOpen(false);
          }}
          onClose={() => setIsOpen(false)}
        />
      ) : null}
    </Card>
  );
}
