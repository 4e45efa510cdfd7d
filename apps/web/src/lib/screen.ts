// What the view host hands to every screen it loads by name.
import type { ComponentType } from 'react';
import type { ScenarioType } from '@iotc/shared/constants';

export interface ScreenProps {
  /** The third address segment when the screen is registered as view/page. */
  id?: string;
  /** Set when the address starts with a scenario_* segment. */
  scenarioType?: ScenarioType;
}

export type ScreenModule = { default: ComponentType<ScreenProps> };
export type ScreenImporter = () => Promise<ScreenModule>;
