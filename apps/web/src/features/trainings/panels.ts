/** What the trainings feature offers other features' screens: the home's panel. */
export { TrainingsHomePanel } from './components/trainings-home-panel';
