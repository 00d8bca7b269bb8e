export const registerNameViewStyles = `
.latch-register-suggestions {
  display: flex;
  flex-wrap: wrap;
  gap: calc(var(--latch-font-size-master) * 0.6);
  margin: 0;
  padding: 0;
  list-style: none;
}
`;
