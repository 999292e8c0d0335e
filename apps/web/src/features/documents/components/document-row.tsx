import { Anchor, Group, Text } from '@mantine/core';
import type { DocumentItem } from '@mise/shared/documents/schemas';
import {
  IconFile,
  IconFileTypePdf,
  IconFileUnknown,
  IconFolder,
  IconLock,
  IconMovie,
  IconPhoto,
} from '@tabler/icons-react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/date';
import { formatBytes } from '../../../shared/upload/progress-figures';
import { type DocumentOpening, documentOpening } from './document-kind';
import { hasMenu, type ItemActions, ItemMenu } from './item-menu';

export type DocumentRowProps = ItemActions & {
  item: DocumentItem;
  /** Search results come from sub-folders too: their folder is shown under the name. */
  isShowingPath: boolean;
  onOpenFolder: (item: DocumentItem) => void;
  onPreview: (item: DocumentItem, kind: 'image' | 'video') => void;
};

const iconProps = { size: 22, stroke: 1.5, 'aria-hidden': true } as const;

function itemIcon(item: DocumentItem, opening: DocumentOpening) {
  if (item.type === 'unknown') return <IconFileUnknown {...iconProps} />;
  switch (opening) {
    case 'folder':
      return <IconFolder {...iconProps} color="var(--mantine-color-yellow-7)" />;
    case 'image':
      return <IconPhoto {...iconProps} color="var(--mantine-color-teal-7)" />;
    case 'video':
      return <IconMovie {...iconProps} color="var(--mantine-color-grape-7)" />;
    case 'pdf':
      return <IconFileTypePdf {...iconProps} color="var(--mantine-color-red-7)" />;
    default:
      return <IconFile {...iconProps} />;
  }
}

/** One folder or file: its icon, its name (opening it), size, time, uploader, lock, menu. */
export const DocumentRow = memo(function DocumentRow({
  item,
  isShowingPath,
  onOpenFolder,
  onPreview,
  ...actions
}: DocumentRowProps) {
  const { t, i18n } = useTranslation();
  const opening = documentOpening(item);
  const url = item.url ?? undefined;
  const nameProps = { fw: 500, className: 'documents-name', 'data-testid': 'document-name' };

  let name: React.ReactNode;
  switch (opening) {
    case 'folder':
      name = (
        <Anchor component="button" type="button" {...nameProps} onClick={() => onOpenFolder(item)}>
          {item.name}
        </Anchor>
      );
      break;
    case 'image':
    case 'video':
      name = (
        <Anchor
          component="button"
          type="button"
          {...nameProps}
          onClick={() => onPreview(item, opening)}
        >
          {item.name}
        </Anchor>
      );
      break;
    case 'pdf':
      name = (
        <Anchor href={url} target="_blank" rel="noopener noreferrer" {...nameProps}>
          {item.name}
        </Anchor>
      );
      break;
    default:
      name = url ? (
        <Anchor href={url} download={item.name} {...nameProps}>
          {item.name}
        </Anchor>
      ) : (
        <Text span {...nameProps}>
          {item.name}
        </Text>
      );
  }

  const details = [
    item.length === null ? null : formatBytes(item.length, i18n.language),
    formatDateTime(item.updated_at),
    item.uploaded_by,
  ].filter((detail): detail is string => Boolean(detail));

  return (
    <li className="documents-row" data-testid="document-row" data-type={item.type}>
      <Group gap="sm" wrap="nowrap" align="center">
        {itemIcon(item, opening)}
        <div className="documents-row-text">
          <Group gap={6} wrap="nowrap">
            {name}
            {item.locked ? (
              <IconLock
                size={16}
                role="img"
                aria-label={t('documents.locked')}
                data-testid="document-locked"
              />
            ) : null}
          </Group>
          <Text size="xs" c="dimmed" className="documents-details">
            {isShowingPath && item.path.length > 0 ? `${item.path.join(' / ')} · ` : ''}
            {details.join(' · ')}
          </Text>
        </div>
        {hasMenu(item) ? <ItemMenu item={item} {...actions} /> : null}
      </Group>
    </li>
  );
});
