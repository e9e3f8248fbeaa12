// Club pages: the print buttons (no inline scripts: the CSP allows only 'self').
document.addEventListener("click", (event) => {
  const button = event.target.closest(".js-print");
  if (button) window.print();
});
