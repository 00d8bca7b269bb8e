import type { QrCode } from '../../core/walletConnect.js';

/** The quiet zone a scanner needs around a QR code, in modules. */
const QUIET_ZONE = 4;

/** A QR code drawn as one SVG path, dark on light whatever the theme, named by `label`. */
export function QrSvg({ qr, label }: { qr: QrCode; label: string }) {
  const side = qr.size + 2 * QUIET_ZONE;
  return (
    <svg viewBox={`${-QUIET_ZONE} ${-QUIET_ZONE} ${side} ${side}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect x={-QUIET_ZONE} y={-QUIET_ZONE} width={side} height={side} className="latch-qr-light" />
      <path d={qr.path} className="latch-qr-dark" />
    </svg>
  );
}
