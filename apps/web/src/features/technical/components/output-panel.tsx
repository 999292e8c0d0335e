import { Badge, Box, Button, Group, type MantineColor, Select, Stack, Text } from '@mantine/core';
import { type OutputLevel, outputLevels } from '@mise/shared/operations/schemas';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfilingOutput } from '../api/get-profiling-output';
import { outputDetails } from './output-details';

const levelColors: Record<OutputLevel, MantineColor> = {
  trace: 'gray',
  debug: 'gray',
  info: 'blue',
  warn: 'orange',
  error: 'red',
  fatal: 'grape',
};

/** `trace` is the lowest level: "all levels" sends no filter. */
const allLevels = 'all';
const outputHeight = 480;

function isOutputLevel(value: string | null): value is OutputLevel {
  return (outputLevels as readonly string[]).includes(value ?? '');
}

type OutputPanelProps = { instanceId: string };

/**
 * The Output tab (spec 002 §2, §9): the chosen instance's recent lines, read every second after
 * the last line held, newest at the bottom and followed unless paused. A minimum level filters
 * on the server. A failed read stops the reads silently; Resume starts them again.
 */
export function OutputPanel({ instanceId }: OutputPanelProps) {
  const { t } = useTranslation();
  const [level, setLevel] = useState<OutputLevel | null>(null);
  const [isPaused, setIsPaused] = useState(false);
  const output = useProfilingOutput(instanceId, level, isPaused);
  const isStopped = output.isError;
  const lines = output.data?.lines ?? [];
  const viewportRef = useRef<HTMLDivElement>(null);

  // Follows the newest line unless paused (the reader may be scrolled up reading).
  useEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport || isPaused || lines.length === 0) return;
    viewport.scrollTop = viewport.scrollHeight;
  }, [lines, isPaused]);

  function handleToggle() {
    if (isPaused || isStopped) {
      setIsPaused(false);
      if (isStopped) void output.refetch();
      return;
    }
    setIsPaused(true);
  }

  const isRunning = !isPaused && !isStopped;

  return (
    <Stack gap="sm">
      <Group align="flex-end" gap="md" wrap="wrap">
        <Select
          label={t('technical.output.level')}
          data={[
            { value: allLevels, label: t('technical.output.allLevels') },
            ...outputLevels
              .filter((value) => value !== 'trace')
              .map((value) => ({ value, label: t(`technical.output.levels.${value}`) })),
          ]}
          value={level ?? allLevels}
          onChange={(value) => setLevel(isOutputLevel(value) ? value : null)}
          allowDeselect={false}
          w={200}
          data-testid="technical-output-level"
        />
        <Button
          variant="default"
          leftSection={isRunning ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
          onClick={handleToggle}
          aria-pressed={!isRunning}
          data-testid="technical-output-toggle"
        >
          {t(isRunning ? 'technical.output.pause' : 'technical.output.resume')}
        </Button>
        <Text size="sm" c="dimmed" data-testid="technical-output-state">
          {isPaused
            ? t('technical.output.paused')
            : isStopped
              ? t('technical.output.stopped')
              : t('technical.output.count', { count: lines.length })}
        </Text>
      </Group>
      <Box
        ref={viewportRef}
        role="log"
        aria-live="off"
        aria-label={t('technical.output.label')}
        tabIndex={0}
        h={outputHeight}
        p="xs"
        bg="var(--mantine-color-gray-0)"
        ff="monospace"
        fz="xs"
        style={{
          overflowY: 'auto',
          border: '1px solid var(--mantine-color-gray-3)',
          borderRadius: 'var(--mantine-radius-sm)',
        }}
        data-testid="technical-output-lines"
      >
        {lines.length === 0 ? (
          <Text ff="monospace" fz="xs" c="dimmed">
            {output.isPending ? t('common.loading') : t('technical.output.empty')}
          </Text>
        ) : (
          lines.map((line) => {
            const details = outputDetails(line.line);
            return (
              <Box
                key={line.seq}
                style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                data-testid="technical-output-line"
                data-seq={line.seq}
                data-level={line.level}
              >
                <Text span ff="monospace" fz="xs" c="dimmed">
                  {dayjs(line.time).format('HH:mm:ss.SSS')}
                </Text>{' '}
                <Badge
                  component="span"
                  size="xs"
                  radius="xs"
                  variant="light"
                  color={levelColors[line.level]}
                  w={56}
                >
                  {line.level}
                </Badge>{' '}
                <Text span ff="monospace" fz="xs">
                  {line.msg}
                </Text>
                {details ? (
                  <Text span ff="monospace" fz="xs" c="dimmed">
                    {' '}
                    {details}
                  </Text>
                ) : null}
              </Box>
            );
          })
        )}
      </Box>
    </Stack>
  );
}
