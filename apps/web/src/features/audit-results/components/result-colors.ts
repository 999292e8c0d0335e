/** One colour per selected result, the same in the score chart and the tables' headers. */
const resultColors = ['blue', 'teal', 'grape', 'orange', 'cyan', 'pink', 'lime', 'indigo'];

export function resultColor(index: number): string {
  return resultColors[index % resultColors.length] ?? 'blue';
}
