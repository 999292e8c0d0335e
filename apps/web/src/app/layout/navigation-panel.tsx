import { Box, Divider, NavLink, ScrollArea } from '@mantine/core';
import type { Role } from '@mise/shared/auth/constants';
import { type NavigationKey, navigationFor } from '@mise/shared/navigation/rules';
import {
  IconBuildingStore,
  IconBuildingWarehouse,
  IconClipboardCheck,
  IconDatabase,
  IconFolder,
  IconHistory,
  IconHome,
  IconLogout,
  IconReceipt,
  IconSchool,
  IconServer,
  IconShoppingCart,
  IconSpeakerphone,
  IconTemperature,
  IconUsers,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useLogout } from '../../shared/auth/logout';
import { LanguagePicker } from '../../shared/i18n/language-picker';

const icons: Record<NavigationKey, ComponentType<{ size?: number; stroke?: number }>> = {
  home: IconHome,
  distributors: IconBuildingWarehouse,
  databases: IconDatabase,
  shop: IconShoppingCart,
  communications: IconSpeakerphone,
  documents: IconFolder,
  history: IconHistory,
  auditing: IconClipboardCheck,
  stores: IconBuildingStore,
  trainings: IconSchool,
  probes: IconTemperature,
  accounts: IconUsers,
  billing: IconReceipt,
  technical: IconServer,
};

/** Detail pages highlight the entry of their list. */
const entryOfDetailPath: Record<string, NavigationKey> = {
  '/account': 'accounts',
  '/store': 'stores',
  '/storeDatabase': 'stores',
  '/storeElement': 'stores',
  '/storeTaskConf': 'stores',
  '/database': 'databases',
  '/databaseElement': 'databases',
  '/taskConf': 'databases',
  '/distributor': 'distributors',
  '/probe': 'probes',
  '/communication': 'communications',
  '/communicationStats': 'communications',
  '/training': 'trainings',
  '/trainingStats': 'trainings',
  '/task': 'history',
  '/auditingConfiguration': 'auditing',
  '/auditingResults': 'auditing',
  '/auditingPerform': 'auditing',
};

type NavigationPanelProps = {
  role: Role;
  /** Called after a choice (the panel hides on narrow screens). */
  onNavigate: () => void;
  /** Phones: the panel also holds the language picker and logout (the header has no room). */
  isCompact?: boolean;
};

/** The entries the role may see (spec 000 §2), in the spec's order. */
export function NavigationPanel({ role, onNavigate, isCompact = false }: NavigationPanelProps) {
  const { t } = useTranslation();
  const logoutMutation = useLogout();
  const { pathname } = useLocation();
  const activeKey = entryOfDetailPath[pathname] ?? pathname.slice(1);

  return (
    <ScrollArea
      type="scroll"
      component="nav"
      aria-label={t('navigation.label')}
      data-testid="navigation-panel"
    >
      {navigationFor(role).map((entry) => {
        const Icon = icons[entry.key];
        return (
          <NavLink
            key={entry.key}
            component={Link}
            to={entry.path}
            label={t(`areas.${entry.key}`)}
            leftSection={<Icon size={18} stroke={1.6} />}
            active={activeKey === entry.key}
            onClick={onNavigate}
            data-testid={`nav-${entry.key}`}
          />
        );
      })}
      {isCompact ? (
        <>
          <Divider my="xs" />
          <Box px="sm" py={4}>
            <LanguagePicker size="sm" />
          </Box>
          <NavLink
            component="button"
            label={t('header.logout')}
            leftSection={<IconLogout size={18} stroke={1.6} />}
            onClick={() => logoutMutation.mutate()}
            disabled={logoutMutation.isPending}
            data-testid="nav-logout"
          />
        </>
      ) : null}
    </ScrollArea>
  );
}
