from carevault.cli import main

main()
