export { CallToAction } from './CallToAction';
export { CardGrid, type Card } from './CardGrid';
export { NumberedStep } from './NumberedStep';
export { PageHero } from './PageHero';
export { Prose } from './Prose';
export { Section } from './Section';
export { PlatformLinks } from './PlatformLinks';
export { StepCards, type StepCard } from './StepCards';
