"""TerraFeud Workbench: rules engine, scenarios, pictures, simulation and balance reports."""

__version__ = "0.1.0"
