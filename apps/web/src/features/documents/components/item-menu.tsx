import { ActionIcon, Menu } from '@mantine/core';
import type { DocumentItem } from '@mise/shared/documents/schemas';
import {
  IconDotsVertical,
  IconDownload,
  IconLock,
  IconLockOpen,
  IconPencil,
  IconTrash,
} from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { canChange, canWrite } from './document-kind';

export type ItemActions = {
  onRename: (item: DocumentItem) => void;
  onToggleLock: (item: DocumentItem) => void;
  onDelete: (item: DocumentItem) => void;
};

type ItemMenuProps = ItemActions & { item: DocumentItem };

/** Whether the item has anything in its menu (a read-only folder has nothing). */
export function hasMenu(item: DocumentItem): boolean {
  return item.url !== null || canWrite(item);
}

// One element for every row: React skips it when a row draws again.
const dotsIcon = <IconDotsVertical size={16} aria-hidden />;

/**
 * An item's menu (download, rename, lock/unlock, delete), light until used: a plain button, the
 * Mantine menu mounted on its first click (a folder shows hundreds of rows). Read-only items
 * keep the download only; locked ones lose rename and delete until unlocked.
 */
export function ItemMenu({ item, onRename, onToggleLock, onDelete }: ItemMenuProps) {
  const { t } = useTranslation();
  const [isMounted, setMounted] = useState(false);
  const [isOpened, setOpened] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!isMounted) return;
    buttonRef.current?.focus({ preventScroll: true });
    setOpened(true);
  }, [isMounted]);

  const button = (
    <ActionIcon
      ref={buttonRef}
      variant="subtle"
      color="gray"
      aria-label={t('documents.actions', { name: item.name })}
      data-testid="document-menu"
      {...(isMounted ? {} : { 'aria-haspopup': 'menu', 'aria-expanded': false })}
      onClick={isMounted ? undefined : () => setMounted(true)}
    >
      {dotsIcon}
    </ActionIcon>
  );
  if (!isMounted) return button;
  return (
    <Menu opened={isOpened} onChange={setOpened} position="bottom-end" withinPortal>
      <Menu.Target>{button}</Menu.Target>
      <Menu.Dropdown>
        {item.url !== null ? (
          <Menu.Item
            component="a"
            href={item.url}
            download={item.name}
            leftSection={<IconDownload size={16} aria-hidden />}
            data-testid="document-download"
          >
            {t('documents.download')}
          </Menu.Item>
        ) : null}
        {canChange(item) ? (
          <Menu.Item
            leftSection={<IconPencil size={16} aria-hidden />}
            onClick={() => onRename(item)}
            data-testid="document-rename"
          >
            {t('documents.rename')}
          </Menu.Item>
        ) : null}
        {canWrite(item) ? (
          <Menu.Item
            leftSection={
              item.locked ? (
                <IconLockOpen size={16} aria-hidden />
              ) : (
                <IconLock size={16} aria-hidden />
              )
            }
            onClick={() => onToggleLock(item)}
            data-testid="document-lock"
          >
            {item.locked ? t('documents.unlock') : t('documents.lock')}
          </Menu.Item>
        ) : null}
        {canChange(item) ? (
          <Menu.Item
            color="red"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={() => onDelete(item)}
            data-testid="document-delete"
          >
            {t('documents.delete')}
          </Menu.Item>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}
