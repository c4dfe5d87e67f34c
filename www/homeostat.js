// The one script a web page needs: defines <homeostat-chess>. Every other file is found next to this one.
//
//   <script type="module" src="homeostat/homeostat.js"></script>
//   <homeostat-chess player="white" level="4"></homeostat-chess>

export { HomeostatChess } from "./homeostat-chess.js";
