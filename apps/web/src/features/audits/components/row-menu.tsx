import { Menu } from '@mantine/core';
import { IconDotsVertical } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';

// One element for every row: React skips it when a row draws again.
const dotsIcon = <IconDotsVertical size={14} aria-hidden />;

type RowMenuProps = {
  /** The button's accessible name. */
  label: string;
  testId: string;
  /** The menu's items, drawn when it opens. */
  children: () => ReactNode;
};

/**
 * A row's "…" menu, light until used: a plain button, the Mantine menu mounted on its first
 * click (a large audit draws a hundred rows; a mounted menu each costs their first render
 * several times over). The mounted menu's button takes the focus, then the menu opens, so it
 * returns the focus to that button when it closes.
 */
export function RowMenu({ label, testId, children }: RowMenuProps) {
  const [isMounted, setMounted] = useState(false);
  const [isOpened, setOpened] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!isMounted) return;
    buttonRef.current?.focus({ preventScroll: true });
    setOpened(true);
  }, [isMounted]);

  const button = (
    <button
      ref={buttonRef}
      type="button"
      className="audit-icon-button mantine-focus-auto"
      aria-label={label}
      data-testid={testId}
      {...(isMounted ? {} : { 'aria-haspopup': 'menu', 'aria-expanded': false })}
      onClick={isMounted ? undefined : () => setMounted(true)}
    >
      {dotsIcon}
    </button>
  );
  if (!isMounted) return button;
  return (
    <Menu opened={isOpened} onChange={setOpened} position="bottom-end" withinPortal>
      <Menu.Target>{button}</Menu.Target>
      <Menu.Dropdown>{children()}</Menu.Dropdown>
    </Menu>
  );
}
