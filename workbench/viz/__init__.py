"""Pictures of TerraFeud: one layout for SVG, matplotlib, heatmaps and the widget."""
