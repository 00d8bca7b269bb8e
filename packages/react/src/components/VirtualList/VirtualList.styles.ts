export const virtualListStyles = `
.latch-virtual-list {
  position: relative;
  overscroll-behavior: contain;
}
.latch-virtual-list-rows {
  position: relative;
  margin: 0;
  padding: 0;
  list-style: none;
}
.latch-virtual-list-rows > li {
  position: absolute;
  left: 0;
  right: 0;
  box-sizing: border-box;
  /* Room for the focus outline, which the scrolling viewport would clip. */
  padding: 3px 3px 5px;
}
`;
