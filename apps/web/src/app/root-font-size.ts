// Root font size = window width x 100 / 1920 (spec section 9), kept current on resize, so
// rem-sized parts scale with the screen as the design intends.
import { useEffect } from 'react';
import { DESIGN_WIDTH } from '@iotc/shared/constants';

function apply(): void {
  document.documentElement.style.fontSize = `${(window.innerWidth * 100) / DESIGN_WIDTH}px`;
}

export function useRootFontSize(): void {
  useEffect(() => {
    apply();
    window.addEventListener('resize', apply);
    return () => window.removeEventListener('resize', apply);
  }, []);
}
