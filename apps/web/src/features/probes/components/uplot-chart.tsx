import { Box } from '@mantine/core';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

type UPlotChartProps = {
  /** Everything but the size, which follows the container's width. */
  options: Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
  height: number;
  testId?: string;
  label: string;
};

/**
 * A uPlot canvas that fills its container's width. New options rebuild the chart; new data
 * with the same options only replaces the columns (thousands of points stay smooth).
 */
export function UPlotChart({ options, data, height, testId, label }: UPlotChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  const dataRef = useRef(data);
  dataRef.current = data;

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const width = Math.max(container.clientWidth, 200);
    const chart = new uPlot({ ...options, width, height }, dataRef.current, container);
    chartRef.current = chart;
    const observer = new ResizeObserver(() => {
      const nextWidth = Math.max(container.clientWidth, 200);
      if (nextWidth !== chart.width) chart.setSize({ width: nextWidth, height });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      chart.destroy();
      chartRef.current = null;
    };
  }, [options, height]);

  useEffect(() => {
    chartRef.current?.setData(data);
  }, [data]);

  return <Box ref={containerRef} w="100%" role="img" aria-label={label} data-testid={testId} />;
}
