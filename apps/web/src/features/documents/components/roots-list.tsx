import { Anchor, Group, Paper, Text } from '@mantine/core';
import type {
  DocumentOwner,
  DocumentOwnerKind,
  DocumentRoot,
} from '@mise/shared/documents/schemas';
import { IconBuildingStore, IconDatabase, IconTruck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const kindIcons: Record<DocumentOwnerKind, typeof IconDatabase> = {
  database: IconDatabase,
  distributor: IconTruck,
  store: IconBuildingStore,
};

export function OwnerKindIcon({ kind }: { kind: DocumentOwnerKind }) {
  const Icon = kindIcons[kind];
  return <Icon size={22} stroke={1.5} aria-hidden color="var(--mantine-color-blue-7)" />;
}

type RootsListProps = {
  roots: DocumentRoot[];
  onOpen: (owner: DocumentOwner) => void;
};

/** The root (spec 002 §2): the caller's databases, distributors and stores, read-only folders. */
export function RootsList({ roots, onOpen }: RootsListProps) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md">
      <ul className="documents-list" data-testid="document-roots">
        {roots.map((root) => (
          <li
            key={`${root.owner.kind}:${root.owner.id}`}
            className="documents-row"
            data-testid="document-root"
            data-kind={root.owner.kind}
          >
            <Group gap="sm" wrap="nowrap">
              <OwnerKindIcon kind={root.owner.kind} />
              <div className="documents-row-text">
                <Anchor
                  component="button"
                  type="button"
                  fw={500}
                  className="documents-name"
                  onClick={() => onOpen(root.owner)}
                  data-testid="document-root-name"
                >
                  {root.name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {t(`documents.kinds.${root.owner.kind}`)}
                </Text>
              </div>
            </Group>
          </li>
        ))}
      </ul>
    </Paper>
  );
}
