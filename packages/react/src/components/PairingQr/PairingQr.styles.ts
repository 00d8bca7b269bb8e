export const pairingQrStyles = `
.latch-pairing {
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: calc(var(--latch-font-size-master) * 1.2);
}
.latch-qr {
  display: grid;
  place-items: center;
  width: calc(var(--latch-font-size-master) * 24);
  aspect-ratio: 1;
  border-radius: calc(var(--latch-border-radius-master) * 4);
  overflow: hidden;
  background: #fff;
}
.latch-qr svg { display: block; width: 100%; height: 100%; }
/* Scanners read dark modules on a light ground, whatever the theme. */
.latch-qr-light { fill: #fff; }
.latch-qr-dark { fill: #141414; }
.latch-qr .latch-message { color: #141414; padding: calc(var(--latch-font-size-master) * 1.6); }
`;
