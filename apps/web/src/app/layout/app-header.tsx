import {
  ActionIcon,
  Anchor,
  Avatar,
  Group,
  Loader,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import type { User } from '@mise/shared/users/schemas';
import { IconLifebuoy, IconLogout } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useNavigation } from 'react-router';
import { useLogout } from '../../shared/auth/logout';
import { LanguagePicker } from '../../shared/i18n/language-picker';

type AppHeaderProps = {
  user: User;
  burger: ReactNode;
  /**
   * Phones: the initial stands for the name and role, and the language picker moves to the
   * navigation panel, so that logout stays on screen.
   */
  isCompact?: boolean;
};

/** Header (spec 000 §2): first initial, first name, surname, role, logout. */
export function AppHeader({ user, burger, isCompact = false }: AppHeaderProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const logoutMutation = useLogout();
  const initial =
    user.name.trim().charAt(0).toUpperCase() || user.surname.trim().charAt(0).toUpperCase();

  return (
    <Group h="100%" px={isCompact ? 'xs' : 'md'} justify="space-between" wrap="nowrap">
      <Group gap={isCompact ? 'xs' : 'sm'} wrap="nowrap">
        {burger}
        <Anchor component={Link} to="/home" underline="never" aria-label={t('areas.home')}>
          <Text component="span" fz="xl" fw={700} c="teal.7">
            {t('app.name')}
          </Text>
        </Anchor>
        {navigation.state === 'loading' ? (
          <Loader size="xs" role="status" aria-label={t('common.loading')} />
        ) : null}
      </Group>
      <Group gap={isCompact ? 4 : 'sm'} wrap="nowrap">
        {isCompact ? null : <LanguagePicker />}
        <Tooltip label={t('areas.support')}>
          <ActionIcon
            component={Link}
            to="/support"
            variant="subtle"
            size="lg"
            aria-label={t('areas.support')}
            data-testid="header-support"
          >
            <IconLifebuoy size={20} />
          </ActionIcon>
        </Tooltip>
        <UnstyledButton
          onClick={() => navigate(`/account?id=${encodeURIComponent(user.id)}`)}
          data-testid="header-name"
          title={t('header.openOwnAccount')}
          aria-label={isCompact ? `${user.name} ${user.surname}` : undefined}
        >
          <Group gap="xs" wrap="nowrap">
            <Avatar color="teal" radius="xl" size="md" data-testid="header-initial">
              {initial}
            </Avatar>
            {isCompact ? null : (
              <div>
                <Text size="sm" fw={600} lh={1.2}>
                  {user.name} {user.surname}
                </Text>
                <Text size="xs" c="dimmed" lh={1.2} data-testid="header-role">
                  {t(`roles.${user.role}`)}
                </Text>
              </div>
            )}
          </Group>
        </UnstyledButton>
        <Tooltip label={t('header.logout')}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            onClick={() => logoutMutation.mutate()}
            loading={logoutMutation.isPending}
            aria-label={t('header.logout')}
            data-testid="logout"
          >
            <IconLogout size={20} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Group>
  );
}
